package io.sluice.http;

import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.sluice.core.Message;
import io.sluice.core.ThrottledException;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Scope;
import io.sluice.core.spi.Step;
import io.sluice.http.internal.ClientMetrics;
import io.sluice.http.internal.Exchanges;
import io.sluice.http.internal.NettyClient;
import java.io.InputStream;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;

/**
 * Calls an HTTP server and makes its response the message: the body as payload (as the listener
 * reads request bodies: text as a string, other content as bytes, none as null), the attributes
 * {@code statusCode}, {@code reasonPhrase} and {@code headers} (lower-case names); the variables
 * stay. The request's body is the payload (bytes as they are, anything else as UTF-8 text).
 *
 * <p>It runs on the shared Netty engine with a pool of kept-alive connections per host, at most
 * {@code maxConnectionsPerHost} at once. It is a scope that waits: under {@code auto} it sends the
 * request from the thread holding the message and no thread waits for the answer (the message goes
 * on when the event loop has read it), each call holding a permit of the flow's adaptive limit
 * until its answer; under {@code synchronous} and {@code staged}, and outside a flow, the thread
 * waits, as for any scope. A 429 or 503 answer fails with a {@link ThrottledException}, no answer
 * within {@code responseTimeout} with a {@link TimeoutException}, both of which the adaptive limit
 * reads as overload (the connection closed in both cases of a cut: timeout or a scatter-gather's
 * cancel).
 */
public final class HttpRequestProcessor implements Scope {

  private final HttpRequestConfig config;
  private volatile NettyClient client;
  private volatile ClientMetrics metrics;

  /** A processor making the call {@code config} describes. */
  public HttpRequestProcessor(HttpRequestConfig config) {
    this.config = config;
  }

  /** What it calls and how. */
  public HttpRequestConfig config() {
    return config;
  }

  @Override
  public void start(FlowContext context) {
    metrics = new ClientMetrics(context.meterRegistry(), context.flowName(), config.method());
    client =
        new NettyClient(
            config.connectTimeout(),
            config.responseTimeout(),
            config.maxConnectionsPerHost(),
            (int) config.maxResponseSize(),
            config.tls());
  }

  /**
   * Sends the request and waits for its response holding no thread under {@code auto}: the step
   * completes when the event loop reads the answer. What could block before the send (a payload
   * stream read to its end, the TLS material loaded at the first https call) runs on a virtual
   * thread of its own instead of the caller's, which may be an event loop or a CPU thread.
   */
  @Override
  public Step enter(Message message) throws Exception {
    NettyClient running = client;
    if (running == null) {
      throw new IllegalStateException("http-request was not started");
    }
    String url = config.url().render(message);
    URI uri = Exchanges.httpUri(url);
    boolean secure = Exchanges.secure(uri);
    if (running.sendsWithoutBlocking(secure) && !(message.payload() instanceof InputStream)) {
      Call call = new Call(running, url, uri, secure, message);
      return Step.await(call.answer, call::cancel);
    }
    CompletableFuture<Call> started = new CompletableFuture<>();
    Thread.ofVirtual()
        .name("sluice-http-request-send")
        .start(
            () -> {
              try {
                started.complete(new Call(running, url, uri, secure, message));
              } catch (Throwable e) {
                started.completeExceptionally(e);
              }
            });
    return Step.await(
        started.thenCompose(call -> call.answer),
        reason -> started.thenAccept(call -> call.cancel(reason)));
  }

  /** One call on its way: the response future, and the step it makes. */
  private final class Call {
    private final String url;
    private final CompletableFuture<FullHttpResponse> response;
    private final CompletableFuture<Step> answer = new CompletableFuture<>();

    Call(NettyClient running, String url, URI uri, boolean secure, Message message) {
      this.url = url;
      FullHttpRequest request = Exchanges.request(config, uri, message);
      int port = uri.getPort() != -1 ? uri.getPort() : secure ? 443 : 80;
      long sent = System.nanoTime();
      ClientMetrics timed = metrics;
      response = running.send(secure, uri.getHost(), port, request, config.responseTimeout());
      response.whenComplete(
          (received, error) -> {
            if (timed != null) {
              timed.called(uri.getHost(), port, outcome(received, error), System.nanoTime() - sent);
            }
            if (error != null) {
              answer.completeExceptionally(failure(error));
              return;
            }
            try {
              answer.complete(Step.done(answered(message, received)));
            } catch (Exception e) {
              answer.completeExceptionally(e);
            } finally {
              received.release();
            }
          });
    }

    /** The status class of an answer, or what ended the call without one. */
    private static String outcome(FullHttpResponse received, Throwable error) {
      if (error == null) {
        return ClientMetrics.statusClass(received.status().code());
      }
      Throwable cause =
          error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error;
      return cause instanceof TimeoutException
          ? "timeout"
          : cause instanceof java.util.concurrent.CancellationException ? "cancelled" : "error";
    }

    /** Cuts the call short: its connection closes and goes back to the pool. */
    void cancel(RuntimeException reason) {
      response.cancel(true);
    }

    private Exception failure(Throwable error) {
      Throwable cause =
          error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error;
      if (cause instanceof TimeoutException) {
        return new TimeoutException(
            config.method() + " " + url + " got no response within " + config.responseTimeout());
      }
      return NettyClient.explain(cause, config.method() + " " + url);
    }

    /** The response as the message, after its status is checked. */
    private Message answered(Message message, FullHttpResponse received) throws Exception {
      int status = received.status().code();
      if (status == 429 || status == 503) {
        throw new ThrottledException(
            config.method() + " " + url + " was answered " + status + ": the server is busy");
      }
      if (status >= 400 && config.failOnErrorStatus()) {
        throw new HttpStatusException(config.method(), url, status);
      }
      return Exchanges.responseMessage(message, received);
    }
  }

  @Override
  public void stop() {
    NettyClient running = client;
    client = null;
    if (running != null) {
      running.close();
    }
  }

  /**
   * A remote call: under {@code auto} it holds a permit of the flow's adaptive limit from its send
   * to its answer, as a blocking call does, though no thread waits.
   */
  @Override
  public ProcessingType processingType() {
    return ProcessingType.BLOCKING_IO;
  }

  @Override
  public String name() {
    return "http-request(" + config.method() + " " + config.url().text() + ")";
  }
}
