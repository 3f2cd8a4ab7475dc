package io.sluice.core.router;

import static io.sluice.core.router.Routes.append;
import static io.sluice.core.router.Routes.failing;
import static io.sluice.core.router.Routes.lite;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.flow.OnError;
import io.sluice.core.spi.Processor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class FlowRefRunsAnotherFlowTest {

  static List<ProcessingStrategy> strategies() {
    return Routes.strategies();
  }

  private static Application app(Flow... flows) {
    Application.Builder builder = Application.builder();
    for (Flow flow : flows) {
      builder.flow(flow);
    }
    Application app = builder.build();
    app.start();
    return app;
  }

  private static Message send(Application app, Object payload) throws Exception {
    return app.send("main", Message.of(payload)).get(20, TimeUnit.SECONDS);
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aSubFlowRunsOnTheCallersMessageAndTheCallerGoesOn(ProcessingStrategy strategy)
      throws Exception {
    Flow sub = Flow.builder("enrich").processor(append("-enriched")).build();
    Flow main =
        Flow.builder("main")
            .strategy(strategy)
            .processor(new FlowRef("enrich"))
            .processor(append("-back"))
            .build();
    try (Application app = app(main, sub)) {
      assertThat(send(app, "x").payload()).isEqualTo("x-enriched-back");
    }
  }

  @Test
  void theReferencedFlowsErrorHandlerTakesItsErrors() throws Exception {
    Flow sub =
        Flow.builder("risky")
            .processor(failing(new IllegalStateException("inside")))
            .onError(new OnError.Continue(List.of(), null, List.of(append("-recovered"))))
            .build();
    Flow main =
        Flow.builder("main").processor(new FlowRef("risky")).processor(append("-back")).build();
    try (Application app = app(main, sub)) {
      assertThat(send(app, "x").payload()).isEqualTo("x-recovered-back");
    }
  }

  @Test
  void aFlowRefToNoFlowFailsTheStartNamingTheFlowsThereAre() {
    Flow main = Flow.builder("main").processor(new FlowRef("nowhere")).build();
    Application app = Application.builder().flow(main).build();
    try (app) {
      assertThatThrownBy(app::start)
          .hasStackTraceContaining("flow-ref 'nowhere' names no flow; the flows are [main]");
    }
  }

  @Test
  void aFlowCallingItselfRecursesTenThousandDeepWithoutTheThreadsStack() throws Exception {
    Processor countDown = lite(m -> m.withPayload((Integer) m.payload() - 1));
    Flow main =
        Flow.builder("main")
            .processor(countDown)
            .processor(Choice.builder("more").when("payload > 0", new FlowRef("main")).build())
            .build();
    try (Application app = app(main)) {
      assertThat(send(app, 10_000).payload()).isEqualTo(0);
    }
  }

  /** A scatter-gather whose route {@code deeper} calls flow {@code main} again. */
  private static ScatterGather recursingFan() {
    return new ScatterGather(
        "fan",
        List.of(
            new ScatterGather.Route("deeper", List.of(new FlowRef("main"))),
            new ScatterGather.Route("beside", List.of(lite(m -> m)))),
        null,
        false,
        "routeErrors");
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aRecursionThroughAScatterGatherGoesTenThousandDeepWithoutTheThreadsStack(
      ProcessingStrategy strategy) throws Exception {
    // A scatter-gather's routes start on the thread that forks them (under auto): a recursion
    // through one must still not nest on that thread's stack.
    Processor countDown = lite(m -> m.withPayload((Integer) m.payload() - 1));
    ScatterGather fan = recursingFan();
    Processor pickDeeper = lite(m -> m.withPayload(((Map<?, ?>) m.payload()).get("deeper")));
    Flow main =
        Flow.builder("main")
            .strategy(strategy)
            .processor(countDown)
            .processor(Choice.builder("more").when("payload > 0", fan, pickDeeper).build())
            .build();
    try (Application app = app(main)) {
      assertThat(send(app, 10_000).payload()).isEqualTo(0);
    }
  }

  @Test
  void aFailureAtTheBottomOfADeepRecursionThroughScatterGathersKeepsItsMessageShort() {
    Processor countDown = lite(m -> m.withPayload((Integer) m.payload() - 1));
    ScatterGather fan = recursingFan();
    Flow main =
        Flow.builder("main")
            .processor(countDown)
            .processor(
                Choice.builder("more")
                    .when("payload > 0", fan)
                    .otherwise(failing(new IllegalStateException("the bottom failed")))
                    .build())
            .build();
    try (Application app = app(main)) {
      assertThatThrownBy(() -> send(app, 2_000))
          .cause()
          .isInstanceOf(CompositeRoutingException.class)
          .satisfies(
              e ->
                  assertThat(e.getMessage())
                      .startsWith("scatter-gather 'fan': 1 route failed; route deeper: ")
                      .hasSizeLessThan(2 * CompositeRoutingException.SHOWN)
                      .contains(" more characters)"));
    }
  }

  @Test
  void aRecursionWithoutEndFailsWithAnErrorNotAnOverflow() {
    Flow main = Flow.builder("main").processor(new FlowRef("main")).build();
    try (Application app = app(main)) {
      assertThatThrownBy(() -> send(app, "x"))
          .cause()
          .hasMessageContaining("Scopes nested 100000 deep in flow 'main'");
    }
  }
}
