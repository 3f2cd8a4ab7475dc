package io.sluice.bench.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseDecoder;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One client of the load: one keep-alive connection, at most one request in flight, requests due at
 * the times its {@link LoadPlan} says. Everything it does runs on its own event loop, so its state
 * needs no locks. A timed-out request closes the connection (HTTP/1.1 cannot cancel one); a closed
 * or failed connection is opened again for the next request.
 */
final class SimulatedClient {

  private static final long NONE = Long.MIN_VALUE;
  private static final long RECONNECT_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final LoadPlan plan;
  private final LoadResults results;
  private final Bootstrap bootstrap;
  private final EventLoop loop;
  private final Supplier<Object> request;
  private final Runnable whenFinished;
  private long start;
  private long nextIntended;
  private long inFlight = NONE;
  private int sent;
  private Channel channel;
  private boolean channelAnswered;
  private boolean connecting;
  private boolean started;
  private boolean finished;
  private ScheduledFuture<?> due;
  private ScheduledFuture<?> timeout;

  SimulatedClient(
      LoadPlan plan,
      LoadResults results,
      Bootstrap shared,
      EventLoop loop,
      Supplier<Object> request,
      Runnable whenFinished) {
    this.plan = plan;
    this.results = results;
    this.loop = loop;
    this.request = request;
    this.whenFinished = whenFinished;
    this.bootstrap =
        shared
            .clone(loop)
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(new HttpResponseDecoder())
                        .addLast(new HttpObjectAggregator(1024 * 1024))
                        .addLast(new Responses());
                  }
                });
  }

  /** Opens the connection before the run; {@code done} runs once it is open or failed. */
  void open(Runnable done) {
    loop.execute(
        () ->
            connect(
                () -> {
                  if (channel == null) {
                    results.setupFailed();
                  }
                  done.run();
                  if (started) {
                    next(); // the run began while this connection was still being opened
                  }
                }));
  }

  /** Starts sending as client {@code index} of a run started at {@code runStart}. */
  void start(long runStart, int index) {
    loop.execute(
        () -> {
          start = runStart;
          started = true;
          nextIntended = plan.firstIntended(runStart, index);
          next();
        });
  }

  /** Ends the client where it stands (the run is over), counting what it never sent. */
  void stop() {
    loop.execute(this::finish);
  }

  private void connect(Runnable then) {
    connecting = true;
    ChannelFuture connected = bootstrap.connect();
    connected.addListener(
        f -> {
          connecting = false;
          if (f.isSuccess()) {
            channel = connected.channel();
            channelAnswered = false;
          }
          then.run();
        });
  }

  private void next() {
    if (!started || finished || inFlight != NONE || connecting) {
      return;
    }
    long now = System.nanoTime();
    boolean more =
        plan.mode() == LoadPlan.Mode.BATCH
            ? sent < plan.requestsPerClient()
            : nextIntended - plan.windowEnd(start) < 0;
    if (!more || now - plan.sendDeadline(start) >= 0) {
      finish();
      return;
    }
    if (nextIntended - now > 0) {
      wakeUpIn(nextIntended - now);
    } else if (channel == null) {
      connect(this::connectedForNext);
    } else {
      send();
    }
  }

  private void connectedForNext() {
    if (channel == null) {
      results.failed("connect", nextIntended, 1);
      wakeUpIn(RECONNECT_PAUSE_NANOS);
    } else {
      next();
    }
  }

  private void wakeUpIn(long nanos) {
    if (due == null || due.isDone()) {
      due = loop.schedule(this::next, nanos, TimeUnit.NANOSECONDS);
    }
  }

  private void send() {
    inFlight = nextIntended;
    sent++;
    channel.writeAndFlush(request.get());
    timeout = loop.schedule(this::timedOut, plan.timeoutNanos(), TimeUnit.NANOSECONDS);
  }

  private void answered(Channel from, int status) {
    if (from != channel || inFlight == NONE) {
      return;
    }
    long now = System.nanoTime();
    channelAnswered = true;
    timeout.cancel(false);
    results.answered(status, inFlight, now);
    ended(now);
  }

  private void timedOut() {
    if (inFlight == NONE) {
      return;
    }
    results.failed("timeout", inFlight, 1);
    dropConnection();
    ended(System.nanoTime());
  }

  private void closed(Channel which) {
    if (which != channel) {
      return;
    }
    channel = null;
    if (inFlight != NONE) {
      timeout.cancel(false);
      results.failed("closed", inFlight, 1);
      ended(System.nanoTime());
    } else if (!channelAnswered) {
      // Closed before it carried a request: a server over its connection limit does that (Sluice
      // answers 503 first). Count it as a failed connection and pause before the next attempt.
      results.failed("connect", nextIntended, 1);
      wakeUpIn(RECONNECT_PAUSE_NANOS);
    } else {
      next();
    }
  }

  private void ended(long now) {
    nextIntended = plan.nextIntended(inFlight, now);
    inFlight = NONE;
    next();
  }

  private void dropConnection() {
    Channel dropped = channel;
    channel = null;
    if (dropped != null) {
      dropped.close();
    }
  }

  private void finish() {
    if (finished) {
      return;
    }
    finished = true;
    if (inFlight != NONE) {
      results.failed("timeout", inFlight, 1);
      inFlight = NONE;
    }
    long firstUnsent =
        plan.mode() == LoadPlan.Mode.BATCH
            ? plan.windowStart(start)
            : Math.max(nextIntended, plan.windowStart(start));
    results.failed("unsent", firstUnsent, plan.unsent(nextIntended, start, sent));
    if (due != null) {
      due.cancel(false);
    }
    dropConnection();
    whenFinished.run();
  }

  /** Hands each answer (or the connection's end) back to its client, on the client's loop. */
  private final class Responses extends SimpleChannelInboundHandler<FullHttpResponse> {

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse response) {
      answered(ctx.channel(), response.status().code());
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      closed(ctx.channel());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
