package io.sluice.core.spi;

import io.sluice.core.FlowError;
import io.sluice.core.Message;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/** What a {@link Scope} asks the flow to do next for one message. */
public sealed interface Step permits Step.Done, Step.Run, Step.Await {

  /** The scope has ended with {@code message}; the flow goes on after it. */
  static Step done(Message message) {
    return new Done(message);
  }

  /** Runs {@code chain} on {@code message}, then hands its result or its error to {@code then}. */
  static Step run(List<Processor> chain, Message message, Then then) {
    return new Run(chain, message, then);
  }

  /**
   * Waits, holding no thread under {@code auto}, until {@code next} gives the step that follows (a
   * failed stage fails the scope with its error).
   */
  static Step await(CompletionStage<? extends Step> next) {
    return new Await(next, reason -> {});
  }

  /**
   * As {@link #await(CompletionStage)}, with what cuts the wait's work short when the message is
   * cancelled meanwhile (a route of an outer scatter-gather that timed out): {@code cancel} gets
   * the reason, and should end what would complete {@code next} (the routes still running).
   */
  static Step await(CompletionStage<? extends Step> next, Consumer<RuntimeException> cancel) {
    return new Await(next, cancel);
  }

  /**
   * The exception to throw for an error a chain ended with: the error itself (unwrapped from a
   * {@link java.util.concurrent.CompletionException}), a JVM error rethrown as it is.
   */
  static Exception rethrow(Throwable error) {
    return InlineSteps.rethrow(error);
  }

  /**
   * The scope's result.
   *
   * @param message what the flow goes on with
   */
  record Done(Message message) implements Step {
    /** Checks the message is there. */
    public Done {
      Objects.requireNonNull(message, "a scope must end with a message");
    }
  }

  /**
   * A chain to run next.
   *
   * @param chain the processors, run in order
   * @param message what the first one gets
   * @param then what follows the chain's end
   */
  record Run(List<Processor> chain, Message message, Then then) implements Step {
    /** Checks the parts are there. */
    public Run {
      Objects.requireNonNull(chain, "chain");
      Objects.requireNonNull(message, "message");
      Objects.requireNonNull(then, "then");
    }
  }

  /**
   * A wait for the step that follows.
   *
   * @param next completes with that step, or fails with the scope's error
   * @param cancel cuts short what {@code next} waits for, when the message is cancelled
   */
  record Await(CompletionStage<? extends Step> next, Consumer<RuntimeException> cancel)
      implements Step {
    /** Checks the parts are there. */
    public Await {
      Objects.requireNonNull(next, "next");
      Objects.requireNonNull(cancel, "cancel");
    }
  }

  /** What a scope does when a chain it asked for ends. */
  interface Then {

    /** The chain ended with {@code result}: the step that follows. */
    Step completed(Message result) throws Exception;

    /**
     * The chain failed: the step that follows, or an exception to fail the scope. By default the
     * error goes on out of the scope unchanged.
     *
     * @param error what failed, where (its processor) and why
     * @param message the message as it was when the chain failed
     */
    default Step failed(FlowError error, Message message) throws Exception {
      throw InlineSteps.rethrow(error.cause());
    }

    /**
     * The chain will not end: the message was cut short while inside it (a route an outer
     * scatter-gather's timeout cancelled) or failed with a JVM error. The scope lets go of what it
     * holds for the message (a {@code try} rolls its transaction back); by default nothing. Called
     * once, on the thread that stopped the message, innermost scope first; it must not throw.
     *
     * @param reason why the message stopped
     */
    default void abandoned(Throwable reason) {}
  }
}
