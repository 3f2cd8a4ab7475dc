package io.sluice.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import io.sluice.http.internal.HttpMetrics.Refusal;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first handler of a connection, before the HTTP codec: it admits the connection (or answers
 * 503 when maxConnections are open) and starts a request's clock at its first byte; the connection
 * closes itself when it idles.
 */
final class ConnectionHandler extends ChannelDuplexHandler {

  private static final Logger log = LoggerFactory.getLogger(ConnectionHandler.class);

  private final HttpServer server;
  private Connection connection;
  private boolean admitted;

  ConnectionHandler(HttpServer server) {
    this.server = server;
  }

  Connection connection() {
    return connection;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    connection = new Connection(server, ctx);
    admitted = server.opened(ctx.channel());
    if (!admitted) {
      server.metrics().refused(Refusal.CONNECTIONS);
      server.metrics().response(503);
      // Before the codec: the refusal is written as raw bytes and nothing is read.
      String refusal =
          "HTTP/1.1 503 Service Unavailable\r\nRetry-After: "
              + server.config().retryAfter().toSeconds()
              + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
      ByteBuf bytes = Unpooled.copiedBuffer(refusal, StandardCharsets.US_ASCII);
      ctx.writeAndFlush(bytes).addListener(ChannelFutureListener.CLOSE);
      return;
    }
    connection.opened();
    super.channelActive(ctx);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    if (!admitted) {
      ReferenceCountUtil.release(msg);
      return;
    }
    connection.bytesArrived();
    super.channelRead(ctx, msg);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
    if (event instanceof SslHandshakeCompletionEvent handshake && !handshake.isSuccess()) {
      // An old protocol, no trusted client certificate, plain HTTP on an HTTPS port: the
      // handshake handler closes the connection; the refusal is counted, the cause is the client's.
      server.metrics().refused(Refusal.TLS_HANDSHAKE);
      log.debug(
          "TLS handshake with {} failed: {}",
          ctx.channel().remoteAddress(),
          handshake.cause().toString());
    }
    super.userEventTriggered(ctx, event);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    connection.closed();
    server.closed(ctx.channel());
    super.channelInactive(ctx);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // A reset by the peer, mostly: the connection ends, the server keeps serving everyone else.
    ctx.close();
  }
}
