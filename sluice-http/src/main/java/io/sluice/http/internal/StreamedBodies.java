package io.sluice.http.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;

/**
 * Before the aggregator: a request for a streaming listener goes to its connection as soon as its
 * headers are in, with a {@link BodyStream} its body then flows into; every other request passes on
 * to be aggregated. With no streaming listener on the server it only passes messages on.
 */
final class StreamedBodies extends ChannelInboundHandlerAdapter {

  private final ConnectionHandler head;
  private final HttpServer server;
  private BodyStream current;

  StreamedBodies(ConnectionHandler head, HttpServer server) {
    this.head = head;
    this.server = server;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (current != null && msg instanceof HttpContent content) {
      try {
        current.append(content.content());
        if (msg instanceof LastHttpContent) {
          current.end();
          current = null;
        }
      } finally {
        ReferenceCountUtil.release(msg);
      }
      return;
    }
    if (msg instanceof HttpRequest request
        && !(msg instanceof FullHttpRequest)
        && server.streaming()
        && streams(request)) {
      if (HttpUtil.is100ContinueExpected(request)) {
        ctx.writeAndFlush(
            new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
        request.headers().remove(HttpHeaderNames.EXPECT);
      }
      current = new BodyStream(ctx.channel());
      head.connection().received(request, current);
      return;
    }
    ctx.fireChannelRead(msg);
  }

  private boolean streams(HttpRequest request) {
    String path = new QueryStringDecoder(request.uri()).rawPath();
    HttpServer.Match match = server.match(path, request.method().name());
    return match.route() != null && match.route().streaming();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (current != null) {
      current.fail("the client closed the connection before the body ended");
      current = null;
    }
    ctx.fireChannelInactive();
  }
}
