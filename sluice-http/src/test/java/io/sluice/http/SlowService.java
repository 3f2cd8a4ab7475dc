package io.sluice.http;

import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import io.sluice.core.router.ScatterGather;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A service on 127.0.0.1 that the requester's tests call: {@code /slow} answers {@code late} when
 * the test lets it, {@code /busy} answers 429, any other path at once with {@code echo:} and the
 * body it got. Registered as a test's extension, it stops after each test.
 */
final class SlowService implements AutoCloseable, AfterEachCallback {

  private final CountDownLatch slowAnswers = new CountDownLatch(1);
  private final Listening server;

  SlowService() {
    Processor answer =
        Processor.of(
            ProcessingType.BLOCKING_IO,
            m -> {
              Object what = ((Map<?, ?>) m.attribute("pathParams")).get("what");
              if ("slow".equals(what)) {
                slowAnswers.await(30, TimeUnit.SECONDS);
                return m.withPayload("late");
              }
              if ("busy".equals(what)) {
                return m.withVariable(HttpListenerSource.STATUS, 429);
              }
              Object body = m.payload();
              return m.withPayload(
                  "echo:"
                      + (body instanceof byte[] bytes
                          ? new String(bytes, StandardCharsets.UTF_8)
                          : body));
            });
    server = Listening.start("/{what}", answer);
  }

  /** The port it listens on. */
  int port() {
    return server.listener.port();
  }

  /**
   * A requester POSTing to {@code /#[vars.what]} of this service, at most {@code
   * maxConnectionsPerHost} calls at once.
   */
  HttpRequestProcessor requester(int maxConnectionsPerHost) {
    return new HttpRequestProcessor(
        HttpRequestConfig.builder(
                "POST",
                Template.parse(
                    "url", "http://127.0.0.1:" + server.listener.port() + "/#[vars.what]"))
            .maxConnectionsPerHost(maxConnectionsPerHost)
            .responseTimeout(Duration.ofSeconds(20))
            .build());
  }

  /** A scatter-gather of {@code call} and a route that does nothing, cut after 300 ms. */
  static ScatterGather fan(HttpRequestProcessor call) {
    return new ScatterGather(
        "fan",
        List.of(
            new ScatterGather.Route("call", List.of(call)),
            new ScatterGather.Route(
                "other", List.of(Processor.of(ProcessingType.CPU_LITE, m -> m)))),
        Duration.ofMillis(300),
        false,
        "routeErrors");
  }

  /** A message calling {@code /what} with {@code what} as its body. */
  static Message call(String what) {
    return Message.of(what).withVariable("what", what);
  }

  /** Lets the calls to {@code /slow} have their answer. */
  void answerTheSlowOnes() {
    slowAnswers.countDown();
  }

  /** The connections the service holds open. */
  double connections() {
    return server.connections();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    close();
  }

  @Override
  public void close() {
    slowAnswers.countDown();
    server.close();
  }
}
