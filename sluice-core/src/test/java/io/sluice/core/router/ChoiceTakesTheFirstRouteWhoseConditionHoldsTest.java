package io.sluice.core.router;

import static io.sluice.core.router.Routes.app;
import static io.sluice.core.router.Routes.append;
import static io.sluice.core.router.Routes.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.SluiceException;
import io.sluice.core.app.Application;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ChoiceTakesTheFirstRouteWhoseConditionHoldsTest {

  static List<ProcessingStrategy> strategies() {
    return Routes.strategies();
  }

  private static Choice byCountry() {
    return Choice.builder("by-country")
        .when("payload.country.startsWith('FR')", append("|fr"))
        .when("payload.country == 'DE'", append("|eu"))
        .otherwise(append("|world"))
        .build();
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void theFirstHoldingConditionWinsAndOtherwiseTakesTheRest(ProcessingStrategy strategy)
      throws Exception {
    Choice choice =
        Choice.builder("by-country")
            .when("payload.startsWith('fr')", append("|fr"))
            .when("payload.startsWith('fr') || payload.startsWith('de')", append("|eu"))
            .otherwise(append("|world"))
            .build();
    try (Application app = app(strategy, choice, append("|after"))) {
      assertThat(send(app, "fr").payload()).isEqualTo("fr|fr|after");
      assertThat(send(app, "de").payload()).isEqualTo("de|eu|after");
      assertThat(send(app, "us").payload()).isEqualTo("us|world|after");
    }
  }

  @Test
  void withNoOtherwiseAMessageNoConditionTakesGoesOnUnchanged() throws Exception {
    Choice choice = Choice.builder(null).when("payload == 'a'", append("!")).build();
    try (Application app = app(ProcessingStrategy.defaultStrategy(), choice)) {
      assertThat(send(app, "b").payload()).isEqualTo("b");
      assertThat(send(app, "a").payload()).isEqualTo("a!");
    }
  }

  @Test
  void aFailingConditionNamesTheRouterTheExpressionAndTheMessage() {
    try (Application app = app(ProcessingStrategy.defaultStrategy(), byCountry())) {
      Message message = Message.of(Map.of("city", "Paris"));
      assertThatThrownBy(() -> app.send("f", message).get(10, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOf(RoutingException.class)
          .hasMessageContaining("choice 'by-country' in flow 'f'")
          .hasMessageContaining("expression 'payload.country.startsWith('FR')'")
          .hasMessageContaining("message " + message.id())
          .satisfies(
              e -> assertThat(((SluiceException) e).errorType()).isEqualTo("ROUTING:EXPRESSION"));
    }
  }

  @Test
  void aConditionGivingNoBooleanIsAnError() {
    Choice choice = Choice.builder("odd").when("payload", append("!")).build();
    try (Application app = app(ProcessingStrategy.defaultStrategy(), choice)) {
      assertThatThrownBy(() -> send(app, "text"))
          .cause()
          .hasMessageContaining("returned text where true or false was expected");
    }
  }

  @Test
  void theDecisionStaysOnTheCallersThreadAndABlockingRouteGetsAVirtualThread() throws Exception {
    Processor where =
        Processor.of(
            ProcessingType.BLOCKING_IO, m -> m.withVariable("thread", Thread.currentThread()));
    Processor lite =
        Processor.of(ProcessingType.CPU_LITE, m -> m.withVariable("lite", Thread.currentThread()));
    Choice choice = Choice.builder("c").when("payload == 'io'", where).otherwise(lite).build();
    try (Application app = app(ProcessingStrategy.defaultStrategy(), choice)) {
      Thread io = (Thread) send(app, "io").variable("thread");
      assertThat(io.isVirtual()).isTrue();
      assertThat(io.getName()).startsWith("sluice-f-io-");
      assertThat(send(app, "lite").variable("lite")).isSameAs(Thread.currentThread());
    }
  }

  @Test
  void eachRouteTakenIsCounted() throws Exception {
    try (Application app = app(ProcessingStrategy.defaultStrategy(), byCountry())) {
      send(app, Map.of("country", "FR"));
      send(app, Map.of("country", "DE"));
      send(app, Map.of("country", "US"));
      send(app, Map.of("country", "US"));
      MeterRegistry registry = app.meterRegistry();
      assertThat(routes(registry, "when-1")).isEqualTo(1);
      assertThat(routes(registry, "when-2")).isEqualTo(1);
      assertThat(routes(registry, "otherwise")).isEqualTo(2);
    }
  }

  private static double routes(MeterRegistry registry, String route) {
    return registry
        .get("sluice.router.routes")
        .tags("flow", "f", "router", "by-country", "route", route)
        .counter()
        .count();
  }
}
