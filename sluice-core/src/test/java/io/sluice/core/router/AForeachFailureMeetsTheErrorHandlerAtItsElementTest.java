package io.sluice.core.router;

import static io.sluice.core.router.Routes.lite;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.flow.OnError;
import io.sluice.core.spi.Processor;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A foreach whose body is CPU_LITE processors runs them itself, element after element; whatever
 * fails in it must reach the flow as it does from a body the flow runs: the error handler sees the
 * message at the failing element (its payload, its counter), the error names the foreach, and what
 * the foreach went over is closed.
 */
class AForeachFailureMeetsTheErrorHandlerAtItsElementTest {

  static List<ProcessingStrategy> strategies() {
    return Routes.strategies();
  }

  private final List<Object> handled = new CopyOnWriteArrayList<>();

  /** A flow of {@code foreach} whose error handler records the payload, counter and error. */
  private Application app(ProcessingStrategy strategy, Foreach foreach) {
    Processor look =
        lite(
            m -> {
              handled.add(m.payload());
              handled.add(m.variable("counter"));
              handled.add(m.error().orElseThrow().processor());
              handled.add(m.error().orElseThrow().cause().getMessage());
              return m;
            });
    Application app =
        Application.builder()
            .flow(
                Flow.builder("f")
                    .strategy(strategy)
                    .processor(foreach)
                    .onError(new OnError.Continue(List.of(), null, List.of(look)))
                    .build())
            .build();
    app.start();
    return app;
  }

  private static Message send(Application app, Object payload) throws Exception {
    return app.send("f", Message.of(payload)).get(20, TimeUnit.SECONDS);
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aProcessorThatThrowsIsHandledAtItsElement(ProcessingStrategy strategy) throws Exception {
    AtomicInteger after = new AtomicInteger();
    Processor failOnB =
        lite(
            m -> {
              if (m.payload().equals("b")) {
                throw new IllegalStateException("no b");
              }
              return m.withPayload(m.payload() + "!");
            });
    Processor count =
        lite(
            m -> {
              after.incrementAndGet();
              return m;
            });
    try (Application app = app(strategy, Foreach.of(failOnB, count))) {
      send(app, List.of("a", "b", "c"));
      assertThat(handled).containsExactly("b", 2L, "foreach", "no b");
      assertThat(after)
          .as("the processors after the failing one, and the elements after")
          .hasValue(1);
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aProcessorThatReturnsNullIsAnErrorNamingIt(ProcessingStrategy strategy) throws Exception {
    Processor nothing =
        new Processor() {
          @Override
          public Message process(Message m) {
            return m.payload().equals(2) ? null : m;
          }

          @Override
          public String name() {
            return "forgetful";
          }
        };
    try (Application app = app(strategy, Foreach.of(lite(m -> m), nothing))) {
      send(app, List.of(1, 2, 3));
      assertThat(handled).hasSize(4);
      assertThat(handled.subList(0, 3)).containsExactly(2, 2L, "foreach");
      assertThat((String) handled.get(3))
          .isEqualTo(
              "Processor 'forgetful' returned null; a processor must return a message (return the"
                  + " one it was given to leave it unchanged)");
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void anIteratorThatFailsMidwayFailsTheMessageAndIsClosed(ProcessingStrategy strategy)
      throws Exception {
    AtomicBoolean closed = new AtomicBoolean();
    Iterator<Object> breaking =
        new BreakingIterator(closed) {
          private int given;

          @Override
          public boolean hasNext() {
            return true;
          }

          @Override
          public Object next() {
            if (++given == 3) {
              throw new IllegalStateException("connection lost");
            }
            return given;
          }
        };
    try (Application app = app(strategy, Foreach.of(lite(m -> m.withPayload("seen"))))) {
      send(app, breaking);
      assertThat(handled).containsExactly("seen", 2L, "foreach", "connection lost");
      assertThat(closed).isTrue();
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void withoutAnErrorHandlerTheErrorFailsTheSend(ProcessingStrategy strategy) {
    Flow flow =
        Flow.builder("f")
            .strategy(strategy)
            .processor(
                Foreach.of(
                    lite(
                        m -> {
                          throw new IllegalArgumentException("bad element " + m.payload());
                        })))
            .build();
    try (Application app = Application.builder().flow(flow).build()) {
      app.start();
      assertThatThrownBy(() -> send(app, List.of(7, 8)))
          .cause()
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("bad element 7");
    }
  }

  /** An iterator that records being closed, as a streaming reader's does. */
  private abstract static class BreakingIterator implements Iterator<Object>, AutoCloseable {
    private final AtomicBoolean closed;

    BreakingIterator(AtomicBoolean closed) {
      this.closed = closed;
    }

    @Override
    public void close() {
      closed.set(true);
    }
  }
}
