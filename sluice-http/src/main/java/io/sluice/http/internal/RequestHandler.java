package io.sluice.http.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import io.sluice.http.internal.HttpMetrics.Refusal;

/**
 * Between the codec and the aggregator it answers what the codec could not decode (400, 414, 431)
 * and what it decoded but is not served (a version other than HTTP/1.x: 505; a target that is not
 * valid percent-encoding: 400); after the aggregator it hands each whole request to its connection.
 */
final class RequestHandler extends ChannelInboundHandlerAdapter {

  private final ConnectionHandler head;
  private final boolean decodeGuard;
  private boolean failed;

  private RequestHandler(ConnectionHandler head, boolean decodeGuard) {
    this.head = head;
    this.decodeGuard = decodeGuard;
  }

  /** The guard placed right after the codec. */
  static RequestHandler guard(ConnectionHandler head) {
    return new RequestHandler(head, true);
  }

  /** The dispatcher placed after the aggregator. */
  static RequestHandler dispatcher(ConnectionHandler head) {
    return new RequestHandler(head, false);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (decodeGuard) {
      guard(ctx, msg);
      return;
    }
    try {
      if (msg instanceof FullHttpRequest request) {
        head.connection().received(request);
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  private void guard(ChannelHandlerContext ctx, Object msg) {
    if (failed) {
      ReferenceCountUtil.release(msg);
      return;
    }
    DecoderResult result = msg instanceof HttpObject o ? o.decoderResult() : DecoderResult.SUCCESS;
    if (result.isSuccess()) {
      if (msg instanceof HttpRequest request && !accepted(request)) {
        failed = true;
        ReferenceCountUtil.release(msg);
        return;
      }
      ctx.fireChannelRead(msg);
      return;
    }
    failed = true;
    ReferenceCountUtil.release(msg);
    Throwable cause = result.cause();
    Connection connection = head.connection();
    if (cause instanceof TooLongHttpHeaderException) {
      connection.refuse(
          Refusal.HEADERS_TOO_LARGE,
          HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
          "the request headers are too large");
    } else if (cause instanceof TooLongHttpLineException) {
      connection.refuse(
          Refusal.LINE_TOO_LONG, HttpResponseStatus.REQUEST_URI_TOO_LONG, "the URI is too long");
    } else {
      connection.refuse(
          Refusal.MALFORMED,
          HttpResponseStatus.BAD_REQUEST,
          "the request line or a header is malformed");
    }
  }

  /**
   * Whether a decoded request head may go on: a version other than HTTP/1.x is answered 505, a
   * target that is not valid percent-encoding 400, each saying why (the body that may follow is not
   * read: the connection closes).
   */
  private boolean accepted(HttpRequest request) {
    String version = RequestTarget.unsupportedVersion(request);
    if (version != null) {
      head.connection()
          .refuse(
              Refusal.VERSION_NOT_SUPPORTED,
              HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED,
              version);
      return false;
    }
    String target = RequestTarget.check(request);
    if (target != null) {
      head.connection().refuse(Refusal.MALFORMED, HttpResponseStatus.BAD_REQUEST, target);
      return false;
    }
    return true;
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (decodeGuard) {
      ctx.fireExceptionCaught(cause);
      return;
    }
    // The last handler: a connection reset or closed mid-request ends that connection only; it
    // was counted when it closed.
    ctx.close();
  }
}
