package io.sluice.http.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.sluice.http.internal.HttpMetrics.Refusal;

/** Aggregates a request's body up to maxBodySize; a larger one is answered 413 and closed. */
final class BodyLimit extends HttpObjectAggregator {

  private final ConnectionHandler head;
  private final long max;

  BodyLimit(ConnectionHandler head, int maxBodySize) {
    super(maxBodySize);
    this.head = head;
    this.max = maxBodySize;
  }

  @Override
  protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
    // Netty would keep a kept-alive connection and skip the rest of the body; closing is
    // simpler and denies a client that keeps sending: the rest of the body is never read.
    head.connection()
        .refuse(
            Refusal.BODY_TOO_LARGE,
            HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
            "the body is larger than " + max + " bytes");
  }
}
