package io.sluice.http.internal;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;
import io.sluice.core.FlowBusyException;
import io.sluice.core.Message;
import io.sluice.core.ThrottledException;
import io.sluice.http.internal.HttpMetrics.Refusal;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection and the request it carries. Every method runs on the connection's event
 * loop, so its state needs no lock; a flow that completes elsewhere hops back first.
 *
 * <p>A request's clock starts at its first byte: the request must arrive and be answered within the
 * server's requestTimeout, or it is answered 408 (still arriving: a slow client) or 504 (its flow
 * still working). Requests a client sends ahead (HTTP/1.1 pipelining) wait their turn and are
 * answered in order; past a few of them the connection stops reading until its turn comes.
 */
final class Connection {

  private static final Logger log = LoggerFactory.getLogger(Connection.class);
  private static final int MAX_PIPELINED = 16;

  private enum State {
    IDLE,
    READING,
    PROCESSING,
    CLOSED
  }

  private final HttpServer server;
  private final ChannelHandlerContext ctx;
  private final Queue<Pending> pipelined = new ArrayDeque<>();
  private State state = State.IDLE;

  /** What the connection's clock is timing. */
  private enum Clock {
    /** Nothing: a response is being written, or the connection closed. */
    NONE,
    /** The quiet between requests: idleTimeout, then the connection closes. */
    IDLE,
    /** A request, from its first byte: requestTimeout, then 408 or 504. */
    REQUEST
  }

  // One timer per connection, not one per request nor a handler watching every read and write:
  // scheduling and cancelling a task per request cost the event loop a few percent under load.
  // The timer fires at the deadline it was set for; when the clock was restarted since, it sets
  // itself again for the rest.
  private ScheduledFuture<?> timer;
  private Clock clock = Clock.NONE;
  private long deadlineNanos;
  private long timerDueNanos;
  private String remoteAddress;
  private String clientCertificate;
  private Exchange current;
  private boolean closing;

  /** The request a flow works on; answered once, by the flow or by a timeout. */
  private static final class Exchange {
    final boolean keepAlive;
    final BodyStream body;
    final long started = System.nanoTime();
    boolean answered;

    /** The route that took it (its timer's tag), null when none did. */
    Route route;

    String method;

    Exchange(boolean keepAlive, BodyStream body) {
      this.keepAlive = keepAlive;
      this.body = body;
    }

    /** Whether the request is still arriving: its streamed body has not ended. */
    boolean arriving() {
      return body != null && !body.ended();
    }
  }

  /**
   * A request waiting for the one in progress: a whole one (body null, retained), or the head of a
   * streamed one whose body buffers meanwhile.
   */
  private record Pending(HttpRequest request, BodyStream body) {
    void discard() {
      if (body == null) {
        ReferenceCountUtil.release(request);
      } else {
        body.abandon();
      }
    }
  }

  Connection(HttpServer server, ChannelHandlerContext ctx) {
    this.server = server;
    this.ctx = ctx;
  }

  /** The connection is open and admitted: it idles until its first request. */
  void opened() {
    startClock(Clock.IDLE);
  }

  /** Bytes arrived: when nothing was in progress, a new request starts and its clock with it. */
  void bytesArrived() {
    if (state == State.IDLE) {
      state = State.READING;
      startClock(Clock.REQUEST);
    }
  }

  private void startClock(Clock what) {
    long nanos =
        (what == Clock.IDLE ? server.config().idleTimeout() : server.config().requestTimeout())
            .toNanos();
    deadlineNanos = System.nanoTime() + nanos;
    clock = what;
    if (timer != null && deadlineNanos - timerDueNanos < 0) {
      // Due before the timer would fire (a request timeout shorter than the idle timeout).
      timer.cancel(false);
      timer = null;
    }
    if (timer == null) {
      schedule(nanos);
    }
  }

  private void schedule(long nanos) {
    timerDueNanos = System.nanoTime() + nanos;
    timer = ctx.executor().schedule(this::clockFired, nanos, TimeUnit.NANOSECONDS);
  }

  private void cancelClock() {
    clock = Clock.NONE;
  }

  private void clockFired() {
    timer = null;
    if (clock == Clock.NONE || state == State.CLOSED) {
      return;
    }
    long left = deadlineNanos - System.nanoTime();
    if (left > 0) {
      schedule(left);
      return;
    }
    Clock ran = clock;
    clock = Clock.NONE;
    if (ran == Clock.IDLE) {
      idle();
    } else {
      timedOut();
    }
  }

  private void timedOut() {
    if (state == State.READING
        || state == State.PROCESSING && current != null && current.arriving()) {
      refuse(Refusal.SLOW_CLIENT, HttpResponseStatus.REQUEST_TIMEOUT, "the request took too long");
    } else if (state == State.PROCESSING && current != null && !current.answered) {
      current.answered = true;
      server.metrics().refused(Refusal.TIMEOUT);
      FullHttpResponse response =
          Exchanges.plain(HttpResponseStatus.GATEWAY_TIMEOUT, "the flow took too long");
      write(response, false);
    }
  }

  /** The connection went quiet for idleTimeout: closed unless a request is in progress. */
  private void idle() {
    if (state == State.IDLE) {
      ctx.close();
    }
  }

  /** The server stops: an idle connection closes now, a busy one after its response. */
  void drain() {
    if (state == State.IDLE) {
      ctx.close();
    }
  }

  /** The client's address as text, worked out once per connection. */
  private String remoteAddress() {
    if (remoteAddress == null) {
      remoteAddress = String.valueOf(ctx.channel().remoteAddress());
    }
    return remoteAddress;
  }

  /**
   * The subject of the certificate the client proved it holds over TLS, worked out once per
   * connection; null on plain HTTP or when the client showed none.
   */
  private String clientCertificate() {
    if (clientCertificate == null) {
      String subject = ServerTls.clientSubject(ctx.pipeline());
      clientCertificate = subject == null ? "" : subject;
    }
    return clientCertificate.isEmpty() ? null : clientCertificate;
  }

  /** Answers {@code status} itself and closes: the request cannot be read any further. */
  void refuse(Refusal reason, HttpResponseStatus status, String text) {
    if (state == State.CLOSED) {
      return;
    }
    server.metrics().refused(reason);
    discardPipelined();
    if (current != null) {
      current.answered = true;
      if (current.body != null) {
        current.body.abandon();
      }
    }
    write(Exchanges.plain(status, text), false);
  }

  /** A whole request arrived; it runs now, or after the one in progress. */
  void received(FullHttpRequest request) {
    if (state == State.PROCESSING) {
      waitTurn(new Pending(request.retain(), null));
      return;
    }
    dispatch(request, null);
  }

  /**
   * The head of a request for a streaming listener arrived, its body follows into {@code body}; it
   * runs now, or after the one in progress.
   */
  void received(HttpRequest request, BodyStream body) {
    if (state == State.PROCESSING) {
      waitTurn(new Pending(request, body));
      return;
    }
    dispatch(request, body);
  }

  private void waitTurn(Pending request) {
    pipelined.add(request);
    if (pipelined.size() >= MAX_PIPELINED) {
      // Reading stays on while a request runs, so a client that leaves is noticed at once;
      // one that sends many requests ahead is made to wait by TCP instead.
      ctx.channel().config().setAutoRead(false);
    }
  }

  private void discardPipelined() {
    pipelined.forEach(Pending::discard);
    pipelined.clear();
  }

  /** Runs a request: {@code body} is its streamed body, or null when the request is whole. */
  private void dispatch(HttpRequest request, BodyStream body) {
    state = State.PROCESSING;
    if (clock != Clock.REQUEST) {
      startClock(Clock.REQUEST);
    }
    boolean keepAlive =
        server.config().keepAlive() && HttpUtil.isKeepAlive(request) && !server.draining();
    Exchange exchange = new Exchange(keepAlive, body);
    current = exchange;
    if (server.draining()) {
      busy(exchange, "the server is stopping");
      return;
    }
    QueryStringDecoder uri = new QueryStringDecoder(request.uri());
    String method = request.method().name();
    HttpServer.Match match = server.match(uri.rawPath(), method);
    Route route = match.route();
    if (route == null) {
      server.metrics().refused(Refusal.NO_ROUTE);
      answer(
          exchange,
          match.pathKnown()
              ? Exchanges.plain(
                  HttpResponseStatus.METHOD_NOT_ALLOWED, "no listener takes " + method + " here")
              : Exchanges.plain(HttpResponseStatus.NOT_FOUND, "no listener at this path"));
      return;
    }
    exchange.route = route;
    exchange.method = method;
    Object payload = body != null ? body : Exchanges.body((FullHttpRequest) request);
    Message message =
        Exchanges.toMessage(
            request, payload, uri, route, match.params(), remoteAddress(), clientCertificate());
    route
        .flow()
        .offer(message)
        .whenComplete(
            (result, error) -> {
              boolean stream = result != null && result.payload() instanceof InputStream;
              if (!ctx.executor().inEventLoop()) {
                readStreamedAnswer(exchange, result, error);
              } else if (stream) {
                // Reading may block (a streamed request body arrives on this very event loop).
                Thread.ofVirtual()
                    .name("sluice-http-answer")
                    .start(() -> readStreamedAnswer(exchange, result, error));
              } else {
                completed(exchange, result, error);
              }
            });
  }

  /**
   * Off the event loop: an answer whose payload is a stream is read here, where blocking is
   * allowed, then the response is written on the event loop.
   */
  private void readStreamedAnswer(Exchange exchange, Message result, Throwable error) {
    Message answer = result;
    Throwable failure = error;
    if (result != null && result.payload() instanceof InputStream stream) {
      try (stream) {
        answer = result.withPayload(stream.readAllBytes());
      } catch (IOException e) {
        answer = null;
        failure = e;
      }
    }
    Message written = answer;
    Throwable failed = failure;
    ctx.executor().execute(() -> completed(exchange, written, failed));
  }

  private void completed(Exchange exchange, Message result, Throwable error) {
    if (exchange.answered) {
      return; // timed out, or the client left: nobody waits for this answer any more
    }
    Throwable cause =
        error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error;
    if (cause instanceof FlowBusyException busy) {
      busy(exchange, "the flow is busy");
      log.debug("503: {}", busy.getMessage());
      return;
    }
    FullHttpResponse response;
    if (cause == null) {
      try {
        response = Exchanges.toResponse(result);
      } catch (RuntimeException badResponse) {
        log.warn("500: the flow's message makes no response: {}", badResponse.getMessage());
        response = internalError();
      }
    } else if (cause instanceof ThrottledException throttled) {
      // The flow's own downstream said "too many": the client hears busy, as from a full flow.
      log.debug("503: {}", throttled.getMessage());
      busy(exchange, "a service behind this one is busy");
      return;
    } else if (cause instanceof TimeoutException || cause instanceof SocketTimeoutException) {
      log.warn("504: {}", cause.toString());
      server.metrics().refused(Refusal.TIMEOUT);
      response =
          Exchanges.plain(
              HttpResponseStatus.GATEWAY_TIMEOUT, "a service behind this one timed out");
    } else {
      log.warn("500: {}", cause.toString());
      response = internalError();
    }
    answer(exchange, response);
  }

  private static FullHttpResponse internalError() {
    return Exchanges.plain(
        HttpResponseStatus.INTERNAL_SERVER_ERROR, "the flow failed; its log says why");
  }

  private void busy(Exchange exchange, String why) {
    server.metrics().refused(Refusal.BUSY);
    FullHttpResponse response =
        Exchanges.plain(HttpResponseStatus.SERVICE_UNAVAILABLE, why + "; try again later");
    response.headers().set(HttpHeaderNames.RETRY_AFTER, server.config().retryAfter().toSeconds());
    answer(exchange, response);
  }

  private void answer(Exchange exchange, FullHttpResponse response) {
    exchange.answered = true;
    if (exchange.route != null) {
      server
          .metrics()
          .served(
              exchange.route.pattern().toString(),
              exchange.method,
              response.status().code(),
              System.nanoTime() - exchange.started);
    }
    // A streamed body the flow left unread: a connection still carrying it is not kept.
    boolean arriving = exchange.arriving();
    if (exchange.body != null) {
      exchange.body.abandon();
    }
    write(response, exchange.keepAlive && !arriving && !server.draining());
  }

  private void write(FullHttpResponse response, boolean keepAlive) {
    cancelClock();
    if (state == State.CLOSED) {
      response.release();
      return;
    }
    if (!keepAlive) {
      Exchanges.closing(response);
      closing = true;
    }
    server.metrics().response(response.status().code());
    ctx.channel()
        .writeAndFlush(response)
        .addListener(
            (ChannelFutureListener)
                written -> {
                  if (!written.isSuccess()) {
                    server.metrics().refused(Refusal.CLIENT_GONE);
                    written.channel().close();
                  } else if (!keepAlive) {
                    written.channel().close();
                  } else {
                    next();
                  }
                });
  }

  /** The response went out on a kept-alive connection: the next request may run. */
  private void next() {
    if (state == State.CLOSED) {
      return;
    }
    current = null;
    state = State.IDLE;
    startClock(Clock.IDLE);
    Pending waiting = pipelined.poll();
    if (pipelined.size() < MAX_PIPELINED) {
      ctx.channel().config().setAutoRead(true);
    }
    if (waiting != null) {
      try {
        dispatch(waiting.request(), waiting.body());
      } finally {
        if (waiting.body() == null) {
          ReferenceCountUtil.release(waiting.request());
        }
      }
      return;
    }
    if (server.draining()) {
      ctx.close();
    }
  }

  /** The channel closed, by either side. */
  void closed() {
    if (!closing && state == State.READING
        || (state == State.PROCESSING && current != null && !current.answered)) {
      if (current != null) {
        current.answered = true;
      }
      server.metrics().refused(Refusal.CLIENT_GONE);
    }
    if (current != null && current.body != null) {
      current.body.fail("the connection closed before the body ended");
    }
    state = State.CLOSED;
    cancelClock();
    if (timer != null) {
      timer.cancel(false); // a closed connection is not kept until its timer would fire
      timer = null;
    }
    discardPipelined();
  }
}
