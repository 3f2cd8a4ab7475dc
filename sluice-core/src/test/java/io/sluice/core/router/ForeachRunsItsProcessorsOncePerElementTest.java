package io.sluice.core.router;

import static io.sluice.core.router.Routes.app;
import static io.sluice.core.router.Routes.lite;
import static io.sluice.core.router.Routes.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.app.Application;
import io.sluice.core.expression.Expression;
import io.sluice.core.spi.Processor;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ForeachRunsItsProcessorsOncePerElementTest {

  static List<ProcessingStrategy> strategies() {
    return Routes.strategies();
  }

  private final List<Object> seen = new CopyOnWriteArrayList<>();

  private Processor record() {
    return lite(
        m -> {
          seen.add(m.payload());
          return m;
        });
  }

  private static Foreach foreach(Processor... processors) {
    return Foreach.of(processors);
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void everyElementRunsInOrderAndThePayloadIsRestoredAfter(ProcessingStrategy strategy)
      throws Exception {
    Processor sum =
        lite(
            m -> {
              long total = m.variable("total") == null ? 0 : (long) m.variable("total");
              return m.withVariable("total", total + ((Number) m.payload()).longValue());
            });
    try (Application app = app(strategy, foreach(record(), sum))) {
      Message out = send(app, List.of(1, 2, 3));
      assertThat(seen).containsExactly(1, 2, 3);
      assertThat(out.payload()).isEqualTo(List.of(1, 2, 3));
      assertThat(out.variable("total")).as("variables set inside stay").isEqualTo(6L);
      assertThat(out.variables()).doesNotContainKeys("counter", "rootMessage");
    }
  }

  @Test
  void theCounterAndTheRootMessageAreVariablesInside() throws Exception {
    List<Object> counters = new ArrayList<>();
    List<Object> roots = new ArrayList<>();
    Processor look =
        lite(
            m -> {
              counters.add(m.variable("counter"));
              roots.add(((Message) m.variable("rootMessage")).payload());
              return m;
            });
    try (Application app = app(ProcessingStrategy.defaultStrategy(), foreach(look))) {
      send(app, List.of("a", "b"));
      assertThat(counters).containsExactly(1L, 2L);
      assertThat(roots).containsExactly(List.of("a", "b"), List.of("a", "b"));
    }
  }

  @Test
  void arraysIteratorsStreamsAndMapsAreGoneOverAndAScalarIsOneElement() throws Exception {
    try (Application app = app(ProcessingStrategy.defaultStrategy(), foreach(record()))) {
      send(app, new String[] {"a", "b"});
      send(app, new int[] {1, 2});
      send(app, List.of("c", "d").iterator());
      send(app, IntStream.range(5, 7).boxed());
      send(app, Map.of("k", "v"));
      send(app, "alone");
      send(app, null);
      assertThat(seen)
          .containsExactly("a", "b", 1, 2, "c", "d", 5, 6, Map.entry("k", "v"), "alone");
    }
  }

  @Test
  void aBatchSizeGivesListsOfUpToThatManyElements() throws Exception {
    Foreach batched = new Foreach(null, null, 2, "counter", "rootMessage", List.of(record()));
    try (Application app = app(ProcessingStrategy.defaultStrategy(), batched)) {
      send(app, List.of(1, 2, 3, 4, 5));
      assertThat(seen).containsExactly(List.of(1, 2), List.of(3, 4), List.of(5));
    }
  }

  @Test
  void aCollectionExpressionChoosesWhatToGoOver() throws Exception {
    Foreach lines =
        new Foreach(
            "lines",
            Expression.compile("collection", "payload.order.lines"),
            1,
            "counter",
            "rootMessage",
            List.of(record()));
    try (Application app = app(ProcessingStrategy.defaultStrategy(), lines)) {
      Map<String, Object> order = Map.of("order", Map.of("lines", List.of("x", "y")));
      assertThat(send(app, order).payload()).isEqualTo(order);
      assertThat(seen).containsExactly("x", "y");
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aMillionElementsFromALazySourceRunWithoutGrowingTheStack(ProcessingStrategy strategy)
      throws Exception {
    long[] count = new long[1];
    Processor counting =
        lite(
            m -> {
              count[0]++;
              return m;
            });
    try (Application app = app(strategy, foreach(counting))) {
      send(app, LongStream.range(0, 1_000_000).iterator());
      assertThat(count[0]).isEqualTo(1_000_000);
    }
  }

  @Test
  void whatItGoesOverIsClosedWhenAnElementFails() {
    AtomicBoolean closed = new AtomicBoolean();
    Processor failOnTwo =
        lite(
            m -> {
              if (m.payload().equals(2)) {
                throw new IllegalStateException("two");
              }
              return m;
            });
    try (Application app = app(ProcessingStrategy.defaultStrategy(), foreach(failOnTwo))) {
      assertThatThrownBy(() -> send(app, new ClosingIterator(List.of(1, 2, 3), closed)))
          .cause()
          .hasMessage("two");
      assertThat(closed).isTrue();
    }
  }

  @Test
  void whatItGoesOverIsClosedAtTheEnd() throws Exception {
    AtomicBoolean closed = new AtomicBoolean();
    try (Application app = app(ProcessingStrategy.defaultStrategy(), foreach(record()))) {
      send(app, new ClosingIterator(List.of(1, 2), closed));
      assertThat(closed).isTrue();
      assertThat(seen).containsExactly(1, 2);
    }
  }

  @Test
  void foreachesNestHundredsDeep() throws Exception {
    Processor inner = record();
    for (int i = 0; i < 500; i++) {
      inner = foreach(inner);
    }
    try (Application app = app(ProcessingStrategy.defaultStrategy(), inner)) {
      send(app, List.of("deep"));
      assertThat(seen).containsExactly("deep");
    }
  }

  /** An iterator over a list that records being closed, as a streaming reader's would be. */
  private static final class ClosingIterator implements Iterator<Object>, AutoCloseable {
    private final Iterator<?> elements;
    private final AtomicBoolean closed;

    ClosingIterator(List<?> elements, AtomicBoolean closed) {
      this.elements = elements.iterator();
      this.closed = closed;
    }

    @Override
    public boolean hasNext() {
      return elements.hasNext();
    }

    @Override
    public Object next() {
      return elements.next();
    }

    @Override
    public void close() {
      closed.set(true);
    }
  }
}
