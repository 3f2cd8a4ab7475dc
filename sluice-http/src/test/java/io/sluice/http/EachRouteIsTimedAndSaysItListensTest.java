package io.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What an operator sees of a listener: a timer per route, method and status class; readiness. */
class EachRouteIsTimedAndSaysItListensTest {

  @Test
  void answersAreTimedByRouteMethodAndStatusClassAndAStrangeMethodIsOther() throws Exception {
    Processor answer =
        Processor.of(
            ProcessingType.CPU_LITE,
            m -> {
              if ("/orders/bad".equals(m.attribute("path"))) {
                throw new IllegalArgumentException("bad order");
              }
              return m.withPayload("ok");
            });
    try (Listening http = Listening.start("/orders/{id}", answer)) {
      assertThat(http.listener.health())
          .singleElement()
          .satisfies(
              check -> {
                assertThat(check.up()).isTrue();
                assertThat(check.detail()).isEqualTo("listening");
              });
      assertThat(http.get("/orders/1").statusCode()).isEqualTo(200);
      assertThat(http.get("/orders/2").statusCode()).isEqualTo(200);
      assertThat(http.get("/orders/bad").statusCode()).isEqualTo(500);
      HttpResponse<String> odd =
          http.client.send(
              HttpRequest.newBuilder(http.uri("/orders/3"))
                  .method("BREW", HttpRequest.BodyPublishers.noBody())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(odd.statusCode()).isEqualTo(200);

      assertThat(timer(http, "GET", "2xx").count()).isEqualTo(2);
      assertThat(timer(http, "GET", "2xx").totalTime(TimeUnit.NANOSECONDS)).isPositive();
      assertThat(timer(http, "GET", "5xx").count()).isEqualTo(1);
      assertThat(timer(http, "OTHER", "2xx").count()).isEqualTo(1);
      assertThat(
              http.app
                  .meterRegistry()
                  .find("sluice.http.server.requests")
                  .tag("method", "BREW")
                  .timer())
          .isNull();
    }
  }

  private static Timer timer(Listening http, String method, String status) {
    return http.app
        .meterRegistry()
        .get("sluice.http.server.requests")
        .tag("route", "/orders/{id}")
        .tag("method", method)
        .tag("status", status)
        .timer();
  }
}
