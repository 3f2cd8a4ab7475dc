package io.sluice.http;

import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.sluice.core.Message;
import io.sluice.core.ThrottledException;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.Processor;
import io.sluice.http.internal.Exchanges;
import io.sluice.http.internal.NettyClient;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Calls an HTTP server and makes its response the message: the body as payload (as the listener
 * reads request bodies: text as a string, other content as bytes, none as null), the attributes
 * {@code statusCode}, {@code reasonPhrase} and {@code headers} (lower-case names); the variables
 * stay. The request's body is the payload (bytes as they are, anything else as UTF-8 text).
 *
 * <p>It runs on the shared Netty engine with a pool of kept-alive connections per host, at most
 * {@code maxConnectionsPerHost} at once. It blocks its caller until the response (BLOCKING_IO: on a
 * virtual thread under the {@code auto} strategy, whose adaptive limit reads a 429 or 503 answer
 * and a timeout as overload and backs off).
 */
public final class HttpRequestProcessor implements Processor {

  private final HttpRequestConfig config;
  private volatile NettyClient client;

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
    client =
        new NettyClient(
            config.connectTimeout(),
            config.responseTimeout(),
            config.maxConnectionsPerHost(),
            (int) config.maxResponseSize(),
            config.tls());
  }

  @Override
  public Message process(Message message) throws Exception {
    NettyClient running = client;
    if (running == null) {
      throw new IllegalStateException("http-request was not started");
    }
    String url = config.url().render(message);
    URI uri = Exchanges.httpUri(url);
    FullHttpRequest request = Exchanges.request(config, uri, message);
    boolean secure = Exchanges.secure(uri);
    int port = uri.getPort() != -1 ? uri.getPort() : secure ? 443 : 80;
    CompletableFuture<FullHttpResponse> call = running.send(secure, uri.getHost(), port, request);
    FullHttpResponse response;
    try {
      response = call.get(config.responseTimeout().toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      call.cancel(true);
      throw new TimeoutException(
          config.method() + " " + url + " got no response within " + config.responseTimeout());
    } catch (InterruptedException e) {
      call.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      throw NettyClient.explain(e.getCause(), config.method() + " " + url);
    }
    try {
      int status = response.status().code();
      if (status == 429 || status == 503) {
        throw new ThrottledException(
            config.method() + " " + url + " was answered " + status + ": the server is busy");
      }
      if (status >= 400 && config.failOnErrorStatus()) {
        throw new HttpStatusException(config.method(), url, status);
      }
      return Exchanges.responseMessage(message, response);
    } finally {
      response.release();
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

  @Override
  public String name() {
    return "http-request(" + config.method() + " " + config.url().text() + ")";
  }
}
