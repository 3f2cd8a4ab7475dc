package io.sluice.http.internal;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.pool.AbstractChannelPoolHandler;
import io.netty.channel.pool.ChannelHealthChecker;
import io.netty.channel.pool.FixedChannelPool;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.ScheduledFuture;
import io.sluice.http.TlsConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * Outbound HTTP and HTTPS on the shared Netty engine: one pool of kept-alive connections per
 * scheme, host and port, at most {@code maxConnectionsPerHost} in use at once (the per-host
 * concurrency limit; more calls wait for a connection in turn).
 */
public final class NettyClient implements AutoCloseable {

  private static final AttributeKey<CompletableFuture<FullHttpResponse>> PENDING =
      AttributeKey.valueOf("sluice.pending");

  private final EventLoopGroup group = NettyEngine.acquire();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Map<String, FixedChannelPool> pools = new ConcurrentHashMap<>();
  private final Duration connectTimeout;
  private final Duration acquireTimeout;
  private final int maxConnectionsPerHost;
  private final int maxResponseSize;
  private final TlsConfig tls;
  private final ReentrantLock tlsLoading = new ReentrantLock();
  private volatile SslContext tlsContext;

  /** A client with these limits; {@link #close()} gives the engine back. */
  public NettyClient(
      Duration connectTimeout,
      Duration acquireTimeout,
      int maxConnectionsPerHost,
      int maxResponseSize,
      TlsConfig tls) {
    this.connectTimeout = connectTimeout;
    this.acquireTimeout = acquireTimeout;
    this.maxConnectionsPerHost = maxConnectionsPerHost;
    this.maxResponseSize = maxResponseSize;
    this.tls = tls;
  }

  /** The TLS context, made at the first https call: a requester calling only http needs none. */
  private SslContext tlsContext() {
    SslContext context = tlsContext;
    if (context == null) {
      tlsLoading.lock();
      try {
        context = tlsContext;
        if (context == null) {
          context = TlsContexts.client(tls);
          tlsContext = context;
        }
      } finally {
        tlsLoading.unlock();
      }
    }
    return context;
  }

  /**
   * The exception a failed call throws: a failed TLS handshake says with whom and what to check,
   * anything else is the cause itself.
   */
  public static Exception explain(Throwable cause, String call) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof SSLException || t instanceof NotSslRecordException) {
        SSLHandshakeException clear =
            new SSLHandshakeException(
                call
                    + ": the TLS handshake failed ("
                    + t.getMessage()
                    + "). Check that the server speaks HTTPS on this port, that its certificate"
                    + " is issued for this host name and comes from a trusted authority");
        clear.initCause(cause);
        return clear;
      }
    }
    return cause instanceof Exception e ? e : new IOException(call + " failed: " + cause, cause);
  }

  /**
   * Sends {@code request} to {@code host:port} on a pooled connection (over TLS when {@code
   * secure}, the host name verified against the server's certificate); the future completes with
   * the whole response (the caller releases it) or fails. Cancelling the future closes the
   * connection.
   */
  public CompletableFuture<FullHttpResponse> send(
      boolean secure, String host, int port, FullHttpRequest request) {
    return send(secure, host, port, request, null);
  }

  /**
   * As {@link #send(boolean, String, int, FullHttpRequest)}, the future failing with a {@link
   * TimeoutException} (its connection closed) when the whole response, the wait for a connection
   * included, has not come within {@code timeout} (null: no limit). The timer is the event loop's:
   * no thread waits for the answer.
   */
  public CompletableFuture<FullHttpResponse> send(
      boolean secure, String host, int port, FullHttpRequest request, Duration timeout) {
    CompletableFuture<FullHttpResponse> response = dispatch(secure, host, port, request);
    if (timeout != null && !response.isDone()) {
      ScheduledFuture<?> timer =
          group
              .next()
              .schedule(
                  () -> response.completeExceptionally(new TimeoutException()),
                  timeout.toNanos(),
                  TimeUnit.NANOSECONDS);
      response.whenComplete((r, e) -> timer.cancel(false));
    }
    return response;
  }

  /**
   * Whether sending over {@code secure} starts without blocking the caller: a first https call
   * loads the TLS material (files, key stores) first.
   */
  public boolean sendsWithoutBlocking(boolean secure) {
    return !secure || tlsContext != null;
  }

  private CompletableFuture<FullHttpResponse> dispatch(
      boolean secure, String host, int port, FullHttpRequest request) {
    SslContext context;
    try {
      context = secure ? tlsContext() : null;
    } catch (RuntimeException e) {
      request.release();
      return CompletableFuture.failedFuture(e);
    }
    FixedChannelPool pool =
        pools.computeIfAbsent(
            (secure ? "https://" : "http://") + host + ":" + port,
            key -> pool(context, host, port));
    CompletableFuture<FullHttpResponse> response = new CompletableFuture<>();
    pool.acquire()
        .addListener(
            acquired -> {
              if (!acquired.isSuccess()) {
                request.release();
                response.completeExceptionally(acquired.cause());
                return;
              }
              Channel channel = (Channel) acquired.getNow();
              if (response.isDone()) {
                // Cut short (timed out, cancelled) while it waited for a connection: the
                // connection goes back unused.
                request.release();
                pool.release(channel);
                return;
              }
              channel.attr(PENDING).set(response);
              response.whenComplete((r, e) -> giveBack(pool, channel, r, e));
              channel
                  .writeAndFlush(request)
                  .addListener(
                      (ChannelFutureListener)
                          written -> {
                            if (!written.isSuccess()) {
                              response.completeExceptionally(written.cause());
                            }
                          });
            });
    return response;
  }

  /** The connection goes back to the pool when it may carry another request, else it closes. */
  private static void giveBack(
      FixedChannelPool pool, Channel channel, FullHttpResponse response, Throwable error) {
    channel.attr(PENDING).set(null);
    if (error != null || response == null || !HttpUtil.isKeepAlive(response)) {
      channel.close();
    }
    pool.release(channel);
  }

  private FixedChannelPool pool(SslContext context, String host, int port) {
    Bootstrap bootstrap =
        new Bootstrap()
            .group(group)
            .channel(NioSocketChannel.class)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) connectTimeout.toMillis())
            .option(ChannelOption.TCP_NODELAY, true)
            .remoteAddress(host, port);
    return new FixedChannelPool(
        bootstrap,
        new AbstractChannelPoolHandler() {
          @Override
          public void channelCreated(Channel channel) {
            if (context != null) {
              // The peer's host and port: the JDK checks the certificate against that name.
              SslHandler tlsHandler = context.newHandler(channel.alloc(), host, port);
              tlsHandler.setHandshakeTimeoutMillis(connectTimeout.toMillis());
              channel.pipeline().addLast(tlsHandler);
            }
            channel
                .pipeline()
                .addLast(new HttpClientCodec())
                .addLast(new HttpObjectAggregator(maxResponseSize))
                .addLast(new ResponseHandler());
          }
        },
        ChannelHealthChecker.ACTIVE,
        FixedChannelPool.AcquireTimeoutAction.FAIL,
        acquireTimeout.toMillis(),
        maxConnectionsPerHost,
        Integer.MAX_VALUE);
  }

  /** Completes the call waiting on the connection. */
  private static final class ResponseHandler extends SimpleChannelInboundHandler<FullHttpResponse> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse response) {
      CompletableFuture<FullHttpResponse> pending = ctx.channel().attr(PENDING).get();
      if (pending == null || !pending.complete(response.retain())) {
        response.release();
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      // A refused handshake closes the connection too, and the close may be heard first: the
      // handshake's failure is the reason then, not the close.
      SslHandler tls = ctx.pipeline().get(SslHandler.class);
      Throwable handshake = tls == null ? null : tls.handshakeFuture().cause();
      fail(
          ctx,
          handshake != null
              ? handshake
              : new IOException("the server closed the connection before its response"));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      fail(ctx, cause);
      ctx.close();
    }

    private static void fail(ChannelHandlerContext ctx, Throwable cause) {
      CompletableFuture<FullHttpResponse> pending = ctx.channel().attr(PENDING).get();
      if (pending != null) {
        pending.completeExceptionally(cause);
      }
    }
  }

  /**
   * Closes the pools and gives the engine back, once: a second close must not release the engine
   * again, or the event loops would stop under the servers and clients still using them.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    pools.values().forEach(FixedChannelPool::close);
    pools.clear();
    NettyEngine.release();
  }
}
