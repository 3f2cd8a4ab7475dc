package io.sluice.core.router;

import static io.sluice.core.router.Routes.app;
import static io.sluice.core.router.Routes.append;
import static io.sluice.core.router.Routes.blocking;
import static io.sluice.core.router.Routes.failing;
import static io.sluice.core.router.Routes.lite;
import static io.sluice.core.router.Routes.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.SluiceException;
import io.sluice.core.ThreadingProfile;
import io.sluice.core.app.Application;
import io.sluice.core.spi.Processor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ScatterGatherRunsRoutesBesideEachOtherTest {

  static List<ProcessingStrategy> strategies() {
    return Routes.strategies();
  }

  private static ScatterGather scatter(
      Duration timeout, boolean tolerate, List<List<Processor>> routes) {
    return new ScatterGather(
        "fan",
        routes.stream().map(r -> new ScatterGather.Route(null, r)).toList(),
        timeout,
        tolerate,
        "routeErrors");
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void theResultMapsEachRouteToItsResultInRouteOrder(ProcessingStrategy strategy) throws Exception {
    ScatterGather sg =
        new ScatterGather(
            "fan",
            List.of(
                new ScatterGather.Route("a", List.of(append("-a"))),
                new ScatterGather.Route(
                    "b", List.of(blocking(m -> m.withPayload(m.payload() + "-b")))),
                new ScatterGather.Route(null, List.of(append("-3")))),
            null,
            false,
            "routeErrors");
    try (Application app = app(strategy, sg)) {
      Message out = send(app, "x");
      assertThat(out.payload()).isEqualTo(Map.of("a", "x-a", "b", "x-b", "3", "x-3"));
      assertThat(List.copyOf(((Map<?, ?>) out.payload()).keySet()))
          .isEqualTo(List.of("a", "b", "3"));
    }
  }

  @Test
  void theRoutesAreNotCountedAsMessagesOfTheFlow() throws Exception {
    try (Application app =
        app(
            ProcessingStrategy.defaultStrategy(),
            scatter(null, false, List.of(List.of(append("1")), List.of(append("2")))))) {
      send(app, "x");
      // The flow counts a message just after its result is handed back: wait for that count,
      // then check the routes added none.
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  completed(app) >= 1
                      && app.meterRegistry()
                              .get("sluice.flow.inflight")
                              .tag("flow", "f")
                              .gauge()
                              .value()
                          == 0);
      assertThat(completed(app)).isEqualTo(1);
    }
  }

  private static double completed(Application app) {
    return app.meterRegistry()
        .get("sluice.flow.messages")
        .tags("flow", "f", "outcome", "completed")
        .counter()
        .count();
  }

  @Test
  void routesRunAtOnceAndTheCallerIsNotHeldWhileTheyRun() throws Exception {
    CountDownLatch bothStarted = new CountDownLatch(2);
    CountDownLatch release = new CountDownLatch(1);
    Processor waitForBoth =
        blocking(
            m -> {
              bothStarted.countDown();
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return m;
            });
    try (Application app =
        app(
            ProcessingStrategy.defaultStrategy(),
            scatter(null, false, List.of(List.of(waitForBoth), List.of(waitForBoth))))) {
      CompletableFuture<Message> result = app.send("f", Message.of("x"));
      assertThat(bothStarted.await(10, TimeUnit.SECONDS)).as("both routes run at once").isTrue();
      assertThat(result).as("the caller got its future back while the routes wait").isNotDone();
      release.countDown();
      assertThat(result.get(10, TimeUnit.SECONDS).payload()).isEqualTo(Map.of("1", "x", "2", "x"));
    }
  }

  /**
   * Under {@code auto} a route starts on the thread that forks it; its blocking work must still go
   * to a thread of its own, or the routes after it would start only when it ends.
   */
  @ParameterizedTest
  @MethodSource("strategies")
  void aRouteThatStartsOnTheCallerThenBlocksDoesNotDelayTheOtherRoutes(ProcessingStrategy strategy)
      throws Exception {
    CountDownLatch secondRan = new CountDownLatch(1);
    Processor waitForTheSecond =
        blocking(
            m -> {
              try {
                return m.withPayload(secondRan.await(10, TimeUnit.SECONDS) ? "saw it" : "alone");
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return m;
              }
            });
    Processor second =
        lite(
            m -> {
              secondRan.countDown();
              return m.withPayload("ran");
            });
    ScatterGather sg =
        scatter(null, false, List.of(List.of(append("-lite"), waitForTheSecond), List.of(second)));
    try (Application app = app(strategy, sg)) {
      CompletableFuture<Message> result = app.send("f", Message.of("x"));
      assertThat(result.get(20, TimeUnit.SECONDS).payload())
          .as("the second route ran while the first one blocked")
          .isEqualTo(Map.of("1", "saw it", "2", "ran"));
    }
  }

  @Test
  void nestedScatterGathersUnderAOneThreadPoolNeverWaitForThemselves() throws Exception {
    ThreadingProfile one = ThreadingProfile.builder().maxThreadsActive(1).maxQueue(1000).build();
    ThreadingProfile receivers =
        ThreadingProfile.builder().maxThreadsActive(8).maxQueue(1000).build();
    Processor inner = scatter(null, false, List.of(List.of(append("a")), List.of(append("b"))));
    Processor outer = scatter(null, false, List.of(List.of(inner), List.of(inner)));
    try (Application app = app(new ProcessingStrategy.Synchronous(receivers, one), outer)) {
      List<CompletableFuture<Message>> all = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        all.add(app.send("f", Message.of("x")));
      }
      for (CompletableFuture<Message> result : all) {
        assertThat(result.get(20, TimeUnit.SECONDS).payload())
            .isEqualTo(
                Map.of("1", Map.of("1", "xa", "2", "xb"), "2", Map.of("1", "xa", "2", "xb")));
      }
    }
  }

  @Test
  void aFailedRouteFailsTheWholeWithEveryRoutesError() {
    ScatterGather sg =
        scatter(
            null,
            false,
            List.of(
                List.of(failing(new IllegalStateException("first broke"))),
                List.of(append("ok")),
                List.of(failing(new IllegalArgumentException("third broke")))));
    try (Application app = app(ProcessingStrategy.defaultStrategy(), sg)) {
      assertThatThrownBy(() -> send(app, "x"))
          .cause()
          .isInstanceOf(CompositeRoutingException.class)
          .hasMessage(
              "scatter-gather 'fan': 2 routes failed; route 1: first broke; route 3: third broke")
          .satisfies(
              e -> {
                CompositeRoutingException composite = (CompositeRoutingException) e;
                assertThat(composite.errorType()).isEqualTo("ROUTING:COMPOSITE");
                assertThat(composite.failures()).containsOnlyKeys("1", "3");
              });
    }
  }

  @Test
  void toleratedFailuresLeaveTheOtherResultsAndAreListedInAVariable() throws Exception {
    ScatterGather sg =
        scatter(
            null,
            true,
            List.of(List.of(failing(new IllegalStateException("down"))), List.of(append("!"))));
    try (Application app = app(ProcessingStrategy.defaultStrategy(), sg)) {
      Message out = send(app, "x");
      assertThat(out.payload()).isEqualTo(Map.of("2", "x!"));
      assertThat(out.variable("routeErrors")).isEqualTo(Map.of("1", "down"));
    }
  }

  @Test
  void aHangingRouteIsCutByTheTimeoutAndItsThreadReleased() throws Exception {
    CountDownLatch interrupted = new CountDownLatch(1);
    Processor hang = hangingUntilInterrupted(interrupted);
    ScatterGather sg =
        scatter(Duration.ofMillis(200), false, List.of(List.of(hang), List.of(append("!"))));
    try (Application app = app(ProcessingStrategy.defaultStrategy(), sg)) {
      assertThatThrownBy(() -> send(app, "x"))
          .cause()
          .isInstanceOf(RoutingException.class)
          .hasMessageContaining("scatter-gather 'fan' timed out after PT0.2S; still running: 1")
          .satisfies(
              e -> assertThat(((SluiceException) e).errorType()).isEqualTo("ROUTING:TIMEOUT"));
      assertThat(interrupted.await(10, TimeUnit.SECONDS))
          .as("the hanging route's thread was interrupted")
          .isTrue();
      assertThat(
              app.meterRegistry()
                  .get("sluice.router.timeouts")
                  .tags("router", "fan")
                  .counter()
                  .count())
          .isEqualTo(1);
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aTimeoutCutsTheRoutesOfAScatterGatherNestedInARoute(ProcessingStrategy strategy)
      throws Exception {
    CountDownLatch interrupted = new CountDownLatch(1);
    Processor hang = hangingUntilInterrupted(interrupted);
    ScatterGather inner =
        new ScatterGather(
            "inner",
            List.of(
                new ScatterGather.Route(null, List.of(hang)),
                new ScatterGather.Route(null, List.of(append("!")))),
            Duration.ofHours(1),
            false,
            "routeErrors");
    ScatterGather outer =
        new ScatterGather(
            "outer",
            List.of(
                new ScatterGather.Route(null, List.of(inner)),
                new ScatterGather.Route(null, List.of(append("?")))),
            // Long enough for the inner route to be hanging when it comes, even on a loaded
            // machine.
            Duration.ofSeconds(1),
            false,
            "routeErrors");
    try (Application app = app(strategy, outer)) {
      assertThatThrownBy(() -> send(app, "x"))
          .cause()
          .isInstanceOf(RoutingException.class)
          .hasMessageContaining("scatter-gather 'outer' timed out after PT1S");
      assertThat(interrupted.await(10, TimeUnit.SECONDS))
          .as("the inner scatter-gather's hanging route was cut with the outer one")
          .isTrue();
    }
  }

  /** A blocking processor that waits until its thread is interrupted, then counts it. */
  private static Processor hangingUntilInterrupted(CountDownLatch interrupted) {
    return blocking(
        m -> {
          try {
            new CountDownLatch(1).await();
          } catch (InterruptedException e) {
            interrupted.countDown();
            Thread.currentThread().interrupt();
          }
          return m;
        });
  }
}
