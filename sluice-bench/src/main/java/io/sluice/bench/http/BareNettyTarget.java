package io.sluice.bench.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The in-run reference of E3: a bare Netty server answering the {@link BenchEndpoint}s on 127.0.0.1
 * with the same token check and reply as {@link SluiceTarget}, on as many event loops as Sluice's
 * engine starts (one per core, at least two). The wait of {@code /wait} is a timer on the event
 * loop, so nothing ever blocks: the best a server can do. It serves E1's downstream too ({@link
 * ServiceEndpoints}: {@code /latency}, {@code /capped} and {@code /counts}).
 */
final class BareNettyTarget implements AutoCloseable {

  private final EventLoopGroup group;
  private final Channel channel;

  BareNettyTarget(ServiceEndpoints service) {
    group =
        new MultiThreadIoEventLoopGroup(
            Math.max(2, Runtime.getRuntime().availableProcessors()), NioIoHandler.newFactory());
    channel =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_BACKLOG, 1024)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(new HttpServerCodec())
                        .addLast(new HttpObjectAggregator(10 * 1024 * 1024))
                        .addLast(new Answer(service));
                  }
                })
            .bind("127.0.0.1", 0)
            .syncUninterruptibly()
            .channel();
  }

  int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** Answers each request with the endpoint's reply, after its wait when it has one. */
  private static final class Answer extends SimpleChannelInboundHandler<FullHttpRequest> {

    private final ServiceEndpoints service;

    Answer(ServiceEndpoints service) {
      this.service = service;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
      boolean keepAlive = HttpUtil.isKeepAlive(request);
      BenchEndpoint endpoint = BenchEndpoint.of(request.uri());
      if (endpoint == null) {
        boolean served =
            service.answer(
                BenchEndpoint.pathOf(request.uri()),
                ctx.executor(),
                (status, body) -> write(ctx, status, body, keepAlive));
        if (!served) {
          write(ctx, HttpResponseStatus.NOT_FOUND, new byte[0], keepAlive);
        }
      } else if (!BenchEndpoint.authorized(request.headers().get(BenchEndpoint.TOKEN_HEADER))) {
        write(ctx, HttpResponseStatus.UNAUTHORIZED, BenchEndpoint.REFUSAL_BYTES, keepAlive);
      } else if (endpoint.waitTime().isPositive()) {
        ctx.executor()
            .schedule(
                () -> write(ctx, HttpResponseStatus.OK, BenchEndpoint.REPLY_BYTES, keepAlive),
                endpoint.waitTime().toNanos(),
                TimeUnit.NANOSECONDS);
      } else {
        write(ctx, HttpResponseStatus.OK, BenchEndpoint.REPLY_BYTES, keepAlive);
      }
    }

    private static void write(
        ChannelHandlerContext ctx, HttpResponseStatus status, byte[] body, boolean keepAlive) {
      FullHttpResponse response =
          new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
      response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=UTF-8");
      HttpUtil.setContentLength(response, body.length);
      HttpUtil.setKeepAlive(response, keepAlive);
      var written = ctx.writeAndFlush(response);
      if (!keepAlive) {
        written.addListener(ChannelFutureListener.CLOSE);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
