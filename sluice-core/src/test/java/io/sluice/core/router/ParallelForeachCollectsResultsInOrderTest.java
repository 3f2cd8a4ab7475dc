package io.sluice.core.router;

import static io.sluice.core.router.Routes.app;
import static io.sluice.core.router.Routes.blocking;
import static io.sluice.core.router.Routes.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.ProcessingStrategy;
import io.sluice.core.app.Application;
import io.sluice.core.spi.Processor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ParallelForeachCollectsResultsInOrderTest {

  static List<ProcessingStrategy> strategies() {
    return Routes.strategies();
  }

  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger most = new AtomicInteger();

  /** Doubles the payload, after yielding a random number of times so the order scrambles. */
  private Processor doubling() {
    return blocking(
        m -> {
          int now = running.incrementAndGet();
          most.accumulateAndGet(now, Math::max);
          for (int i = ThreadLocalRandom.current().nextInt(50); i > 0; i--) {
            Thread.yield();
          }
          running.decrementAndGet();
          return m.withPayload((Integer) m.payload() * 2);
        });
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void resultsComeInTheElementsOrderWithAtMostMaxConcurrencyAtOnce(ProcessingStrategy strategy)
      throws Exception {
    ParallelForeach each = new ParallelForeach("each", null, 3, null, List.of(doubling()));
    List<Integer> input = IntStream.range(0, 200).boxed().toList();
    try (Application app = app(strategy, each)) {
      assertThat(send(app, input).payload()).isEqualTo(input.stream().map(i -> i * 2).toList());
      assertThat(most.get()).isBetween(1, 3);
    }
  }

  @Test
  void failedElementsFailTheWholeNamingEachByItsNumber() {
    Processor oddFails =
        blocking(
            m -> {
              if ((Integer) m.payload() % 2 == 1) {
                throw new IllegalStateException("odd " + m.payload());
              }
              return m;
            });
    ParallelForeach each = new ParallelForeach("each", null, 2, null, List.of(oddFails));
    try (Application app = app(ProcessingStrategy.defaultStrategy(), each)) {
      assertThatThrownBy(() -> send(app, List.of(0, 1, 2, 3)))
          .cause()
          .isInstanceOf(CompositeRoutingException.class)
          .hasMessage("parallel-foreach 'each': 2 routes failed; route 2: odd 1; route 4: odd 3");
    }
  }

  @Test
  void theTimeoutCutsWhatStillRuns() {
    Processor hang =
        blocking(
            m -> {
              try {
                Thread.sleep(Duration.ofMinutes(5));
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return m;
            });
    ParallelForeach each =
        new ParallelForeach("each", null, 2, Duration.ofMillis(100), List.of(hang));
    try (Application app = app(ProcessingStrategy.defaultStrategy(), each)) {
      assertThatThrownBy(() -> send(app, List.of(1, 2, 3)))
          .cause()
          .hasMessage(
              "parallel-foreach 'each' timed out after PT0.1S; still running: 1, 2 (and routes"
                  + " not started)");
    }
  }
}
