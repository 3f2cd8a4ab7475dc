package io.sluice.http.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.ScheduledFuture;
import io.sluice.core.SluiceException;
import io.sluice.http.HttpServerConfig;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One listening socket on the shared Netty engine and the routes of the listeners on it. Stopping
 * it stops accepting at once, lets each response in flight go out (each with {@code Connection:
 * close}) for up to shutdownTimeout, then closes what is left.
 */
public final class HttpServer {

  private static final Logger log = LoggerFactory.getLogger(HttpServer.class);

  private final HttpServerConfig config;
  private final EventLoopGroup group;
  private final AtomicInteger open = new AtomicInteger();
  private final Set<Channel> connections = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean released = new AtomicBoolean();
  private final CompletableFuture<Void> terminated = new CompletableFuture<>();
  private volatile List<Route> routes = List.of();
  private volatile boolean streaming;
  private volatile boolean draining;
  private final HttpMetrics metrics;
  private final ServerTls tls;
  private final Channel channel;

  /** Binds {@code config}'s address; fails with a clear message when it cannot. */
  HttpServer(HttpServerConfig config, MeterRegistry registry) {
    this.config = config;
    this.group = NettyEngine.acquire();
    try {
      this.tls =
          config.tls() == null
              ? null
              : new ServerTls(config.tls(), config.host() + ":" + config.port());
      this.channel = bind();
    } catch (RuntimeException e) {
      release();
      throw e;
    }
    this.metrics = new HttpMetrics(registry, config.host() + ":" + port(), open);
    log.info("HTTP server listening on {}:{}: {}", config.host(), port(), config);
  }

  private Channel bind() {
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_BACKLOG, config.backlog())
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    pipeline(ch.pipeline());
                  }
                });
    try {
      return bootstrap.bind(config.host(), config.port()).syncUninterruptibly().channel();
    } catch (Exception e) {
      String why =
          e instanceof BindException
              ? "Port "
                  + config.port()
                  + " is already in use. Make sure no other process is using it and try again."
              : "It could not listen on " + config.host() + ":" + config.port() + ": " + e;
      throw new SluiceException(why, e);
    }
  }

  private void pipeline(ChannelPipeline pipeline) {
    ConnectionHandler head = new ConnectionHandler(this);
    if (tls != null) {
      // First: everything after it, the raw 503 of a connection too many included, is TLS.
      pipeline.addLast(
          "tls",
          tls.newHandler(pipeline.channel().alloc(), config.requestTimeout().toMillis(), metrics));
    }
    pipeline.addLast("connection", head);
    pipeline.addLast(
        "codec",
        new HttpServerCodec(
            new HttpDecoderConfig()
                .setMaxInitialLineLength(config.maxInitialLineLength())
                .setMaxHeaderSize(config.maxHeaderSize())
                .setMaxChunkSize(8192)));
    pipeline.addLast("decoded", RequestHandler.guard(head));
    pipeline.addLast("streamed", new StreamedBodies(head, this));
    pipeline.addLast("body", new BodyLimit(head, (int) config.maxBodySize()));
    pipeline.addLast("dispatch", RequestHandler.dispatcher(head));
  }

  HttpServerConfig config() {
    return config;
  }

  HttpMetrics metrics() {
    return metrics;
  }

  /** What a request's path and method find: the route that takes it, or why none does. */
  record Match(Route route, Map<String, String> params, boolean pathKnown) {}

  /** The most specific route for {@code rawPath} that takes {@code method}. */
  Match match(String rawPath, String method) {
    boolean pathKnown = false;
    for (Route candidate : routes) {
      Map<String, String> matched = candidate.pattern().match(rawPath);
      if (matched != null) {
        pathKnown = true;
        if (candidate.allows(method)) {
          return new Match(candidate, matched, true);
        }
      }
    }
    return new Match(null, null, pathKnown);
  }

  /** Whether any listener of this server takes its request bodies as streams. */
  boolean streaming() {
    return streaming;
  }

  boolean draining() {
    return draining;
  }

  /** Whether its listening socket is bound and open. */
  public boolean listening() {
    return channel.isActive();
  }

  /** The port it listens on (the one chosen when the configuration said 0). */
  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  /** Adds a listener's route; the more specific paths are tried first. */
  synchronized void add(Route route) {
    List<Route> next = new ArrayList<>(routes);
    next.add(route);
    next.sort(Comparator.comparingInt((Route r) -> r.pattern().specificity()).reversed());
    routes(next);
  }

  private void routes(List<Route> next) {
    routes = List.copyOf(next);
    streaming = next.stream().anyMatch(Route::streaming);
  }

  /** Removes a listener's route; true when none is left. */
  synchronized boolean remove(Route route) {
    List<Route> next = new ArrayList<>(routes);
    next.remove(route);
    routes(next);
    return next.isEmpty();
  }

  /** Counts a new connection; false when maxConnections are already open. */
  boolean opened(Channel connection) {
    if (draining || open.incrementAndGet() > config.maxConnections()) {
      open.decrementAndGet();
      return false;
    }
    connections.add(connection);
    return true;
  }

  void closed(Channel connection) {
    if (connections.remove(connection)) {
      open.decrementAndGet();
    }
    if (draining && connections.isEmpty()) {
      release();
    }
  }

  /**
   * Stops accepting, closes idle connections, and lets busy ones finish their response; after
   * shutdownTimeout closes what is left. Returns at once; {@link #terminated()} completes when
   * every connection is closed.
   *
   * <p>The deadline is scheduled first, while this server still holds the engine: once draining,
   * the last connection to close releases the engine, and its loops end with it. A deadline asked
   * of them after that was refused ({@code RejectedExecutionException} out of an application's
   * close, seen in CI when an idle kept-alive client closed between the drain and the deadline).
   * When the engine ends first, it cancels the deadline with its other scheduled tasks.
   */
  void stop() {
    ScheduledFuture<?> deadline =
        group
            .next()
            .schedule(
                () -> {
                  connections.forEach(Channel::close);
                  release();
                },
                config.shutdownTimeout().toNanos(),
                TimeUnit.NANOSECONDS);
    draining = true;
    channel.close().awaitUninterruptibly(config.shutdownTimeout().toMillis());
    for (Channel connection : connections) {
      try {
        connection
            .eventLoop()
            .execute(
                () -> {
                  ConnectionHandler head = connection.pipeline().get(ConnectionHandler.class);
                  if (head != null && head.connection() != null) {
                    head.connection().drain();
                  }
                });
      } catch (RejectedExecutionException loopGone) {
        connection.close();
      }
    }
    if (connections.isEmpty()) {
      deadline.cancel(false);
      release();
    }
  }

  /** Completes when the server has let go of the engine: every connection closed. */
  public CompletableFuture<Void> terminated() {
    return terminated;
  }

  private void release() {
    if (released.compareAndSet(false, true)) {
      NettyEngine.release();
      terminated.complete(null);
    }
  }
}
