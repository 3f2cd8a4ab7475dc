package io.sluice.core.router;

import static io.sluice.core.router.Routes.app;
import static io.sluice.core.router.Routes.append;
import static io.sluice.core.router.Routes.failing;
import static io.sluice.core.router.Routes.lite;
import static io.sluice.core.router.Routes.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.ProcessingStrategy;
import io.sluice.core.SluiceException;
import io.sluice.core.app.Application;
import io.sluice.core.flow.OnError;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class TryScopeHandlesItsOwnErrorsTest {

  static List<ProcessingStrategy> strategies() {
    return Routes.strategies();
  }

  private static final SluiceException PARSE =
      new SluiceException("FORMAT:PARSE", "not JSON at line 1, column 2", null);

  @ParameterizedTest
  @MethodSource("strategies")
  void onErrorContinueEndsTheScopeWithTheBranchsResultAndTheFlowGoesOn(ProcessingStrategy strategy)
      throws Exception {
    TryScope attempt =
        new TryScope(
            "parse",
            List.of(append("-before"), failing(PARSE), append("-never")),
            List.of(
                new OnError.Continue(
                    List.of("PARSE"),
                    null,
                    List.of(
                        lite(
                            m ->
                                m.withPayload(
                                    m.payload()
                                        + "-handled:"
                                        + m.error().orElseThrow().errorType()))))));
    try (Application app = app(strategy, attempt, append("-after"))) {
      assertThat(send(app, "x").payload()).isEqualTo("x-before-handled:FORMAT:PARSE-after");
    }
  }

  @Test
  void onErrorPropagateRunsTheBranchThenTheErrorGoesOn() {
    TryScope attempt =
        new TryScope(
            null,
            List.of(failing(PARSE)),
            List.of(new OnError.Propagate(List.of("FORMAT:PARSE"), null, List.of(append("!")))));
    try (Application app = app(ProcessingStrategy.defaultStrategy(), attempt, append("-after"))) {
      assertThatThrownBy(() -> send(app, "x")).cause().isSameAs(PARSE);
    }
  }

  @Test
  void anErrorNoBranchTakesGoesOnOutOfTheScope() {
    IllegalStateException other = new IllegalStateException("other");
    TryScope attempt =
        new TryScope(
            null,
            List.of(failing(other)),
            List.of(new OnError.Continue(List.of("PARSE"), null, List.of(append("!")))));
    try (Application app = app(ProcessingStrategy.defaultStrategy(), attempt)) {
      assertThatThrownBy(() -> send(app, "x")).cause().isSameAs(other);
    }
  }

  @Test
  void anErrorInTheBranchWinsWithTheOriginalSuppressed() {
    IllegalStateException inBranch = new IllegalStateException("branch broke");
    TryScope attempt =
        new TryScope(
            null,
            List.of(failing(new IllegalArgumentException("first"))),
            List.of(new OnError.Continue(List.of(), null, List.of(failing(inBranch)))));
    try (Application app = app(ProcessingStrategy.defaultStrategy(), attempt)) {
      assertThatThrownBy(() -> send(app, "x"))
          .cause()
          .isSameAs(inBranch)
          .satisfies(e -> assertThat(e.getSuppressed()[0]).hasMessage("first"));
    }
  }
}
