package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.app.Application;
import io.sluice.core.expression.Expression;
import io.sluice.core.flow.Flow;
import io.sluice.core.flow.OnError;
import io.sluice.core.spi.Processor;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ErrorHandlerDecidesHowAFailedMessageEndsTest {

  static List<ProcessingStrategy> strategies() {
    return StrategiesCarryMessagesTest.strategies();
  }

  private static final class Failing implements Processor {
    private final Exception error;

    Failing(Exception error) {
      this.error = error;
    }

    @Override
    public Message process(Message message) throws Exception {
      throw error;
    }

    @Override
    public String name() {
      return "failing";
    }
  }

  private static Message run(ProcessingStrategy strategy, Exception error, OnError... branches)
      throws Exception {
    return result(strategy, error, branches).get(10, TimeUnit.SECONDS);
  }

  private static CompletableFuture<Message> result(
      ProcessingStrategy strategy, Exception error, OnError... branches) {
    Flow.Builder builder =
        Flow.builder("errors")
            .strategy(strategy)
            .processor(m -> m.withVariable("before", true))
            .processor(new Failing(error))
            .processor(m -> m.withPayload("not reached"));
    for (OnError branch : branches) {
      builder.onError(branch);
    }
    Application app = Application.builder().flow(builder.build()).build();
    app.start();
    try {
      CompletableFuture<Message> result = app.send("errors", Message.of("in"));
      result.handle((m, e) -> null).get(10, TimeUnit.SECONDS);
      return result;
    } catch (Exception e) {
      throw new AssertionError("the message never ended", e);
    } finally {
      app.stop();
    }
  }

  private static OnError.Continue onErrorContinue(List<String> types, Processor... processors) {
    return new OnError.Continue(types, null, List.of(processors));
  }

  private static Throwable failure(CompletableFuture<Message> result) {
    assertThat(result).isCompletedExceptionally();
    return result.exceptionNow();
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void onErrorContinueSucceedsWithTheHandlersResultAndTheHandlerSeesTheError(
      ProcessingStrategy strategy) throws Exception {
    IOException boom = new IOException("disk on fire");
    AtomicReference<FlowError> seen = new AtomicReference<>();
    Message out =
        run(
            strategy,
            boom,
            onErrorContinue(
                List.of(),
                m -> {
                  seen.set(m.error().orElseThrow());
                  return m.withPayload("handled");
                }));
    assertThat(out.payload()).isEqualTo("handled");
    assertThat(out.variable("before")).isEqualTo(true);
    assertThat(out.error()).isEmpty();
    assertThat(seen.get()).isEqualTo(new FlowError("errors", "failing", boom));
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void onErrorPropagateRunsItsProcessorsThenFailsWithTheOriginalError(ProcessingStrategy strategy) {
    IOException boom = new IOException("disk on fire");
    AtomicReference<Message> seen = new AtomicReference<>();
    CompletableFuture<Message> result =
        result(
            strategy,
            boom,
            new OnError.Propagate(
                List.of(),
                null,
                List.of(
                    m -> {
                      seen.set(m);
                      return m;
                    })));
    assertThat(failure(result)).isSameAs(boom);
    assertThat(seen.get().error()).map(FlowError::cause).containsSame(boom);
  }

  @Test
  void typesMatchBySimpleNameQualifiedNameAndSuperclass() throws Exception {
    ProcessingStrategy sync = new ProcessingStrategy.Synchronous(Profiles.threads(1));
    for (String type :
        List.of(
            "FileNotFoundException",
            "java.io.FileNotFoundException",
            "IOException",
            "java.lang.Exception")) {
      Message out =
          run(
              sync,
              new FileNotFoundException("x"),
              onErrorContinue(List.of("IllegalStateException"), m -> m.withPayload("wrong branch")),
              onErrorContinue(List.of(type), m -> m.withPayload("handled")));
      assertThat(out.payload()).as(type).isEqualTo("handled");
    }
  }

  @Test
  void whenExpressionChoosesTheBranch() throws Exception {
    ProcessingStrategy sync = new ProcessingStrategy.Synchronous(Profiles.threads(1));
    Message out =
        run(
            sync,
            new IOException("quota exceeded"),
            new OnError.Continue(
                List.of(),
                Expression.compile("when", "error.message == 'other'"),
                List.of(m -> m.withPayload("wrong branch"))),
            new OnError.Continue(
                List.of(),
                Expression.compile("when", "error.message.startsWith('quota') && vars.before"),
                List.of(m -> m.withPayload("quota"))));
    assertThat(out.payload()).isEqualTo("quota");
  }

  @Test
  void anErrorNoBranchTakesPropagatesAsItIs() {
    IOException boom = new IOException("disk on fire");
    CompletableFuture<Message> result =
        result(
            new ProcessingStrategy.Synchronous(Profiles.threads(1)),
            boom,
            onErrorContinue(List.of("IllegalStateException"), m -> m));
    assertThat(failure(result)).isSameAs(boom);
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void anErrorInTheHandlerWinsWithTheOriginalSuppressed(ProcessingStrategy strategy) {
    IOException boom = new IOException("disk on fire");
    IllegalStateException handlerFailed = new IllegalStateException("handler broke");
    CompletableFuture<Message> result =
        result(
            strategy,
            boom,
            onErrorContinue(
                List.of(),
                m -> {
                  throw handlerFailed;
                }));
    assertThat(failure(result)).isSameAs(handlerFailed);
    assertThat(handlerFailed.getSuppressed()).containsExactly(boom);
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aHandlerThatRethrowsTheOriginalErrorFailsTheMessageWithIt(ProcessingStrategy strategy) {
    IOException boom = new IOException("disk on fire");
    CompletableFuture<Message> result =
        result(
            strategy,
            boom,
            onErrorContinue(
                List.of(),
                m -> {
                  throw (Exception)
                      m.error().orElseThrow().cause(); // log-and-rethrow, a common handler
                }));
    assertThat(failure(result)).isSameAs(boom);
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aProcessorReturningNullFailsTheMessageNamingTheProcessor(ProcessingStrategy strategy) {
    Flow flow =
        Flow.builder("nulls")
            .strategy(strategy)
            .processor(
                new Processor() {
                  @Override
                  public Message process(Message message) {
                    return null;
                  }

                  @Override
                  public String name() {
                    return "forgetful";
                  }
                })
            .build();
    try (Application app = Application.builder().flow(flow).build()) {
      app.start();
      assertThatThrownBy(() -> app.send("nulls", Message.of(1)).get(10, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOf(SluiceException.class)
          .hasMessageContaining("Processor 'forgetful' returned null");
    }
  }
}
