package io.sluice.core.flow;

import io.sluice.core.FlowError;
import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.expression.Expression;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Step;
import java.util.List;

/**
 * One branch of a flow's error handler: which errors it takes, the processors it runs on the failed
 * message (whose {@link Message#error()} is set), and whether the flow then succeeds ({@link
 * Continue}) or fails ({@link Propagate}).
 */
public sealed interface OnError permits OnError.Continue, OnError.Propagate {

  /**
   * Exception class names (simple or qualified, superclasses match too) or error types ({@code
   * FORMAT:PARSE}, or {@code PARSE} alone); empty takes all.
   */
  List<String> types();

  /** An extra condition on the message, or null. */
  Expression when();

  /** What runs on the failed message. */
  List<Processor> processors();

  /** Whether this branch takes the error. */
  default boolean matches(Message failed, Throwable cause) {
    if (!types().isEmpty() && !typeMatches(cause)) {
      return false;
    }
    return when() == null || when().test(failed);
  }

  private boolean typeMatches(Throwable cause) {
    return named(types(), cause);
  }

  /**
   * Whether {@code types} names {@code cause}: its class or a superclass (simple or qualified
   * name), or its error type ({@code FORMAT:PARSE}), whole or by its identifier ({@code PARSE}).
   * The one matching rule of error branches and of the scopes that choose errors ({@code
   * until-successful}'s {@code retryOn}).
   */
  static boolean named(List<String> types, Throwable cause) {
    if (cause instanceof SluiceException typed && typed.errorType() != null) {
      String type = typed.errorType();
      if (types.contains(type) || types.contains(type.substring(type.indexOf(':') + 1))) {
        return true;
      }
    }
    for (Class<?> c = cause.getClass(); c != null; c = c.getSuperclass()) {
      if (types.contains(c.getSimpleName()) || types.contains(c.getName())) {
        return true;
      }
    }
    return false;
  }

  /**
   * What follows a chain whose errors these branches take: its result ends the scope, its error
   * goes to {@link #handle}; for {@code try} and a flow reached by a flow-ref.
   */
  static Step.Then handledBy(List<OnError> branches) {
    return new Step.Then() {
      @Override
      public Step completed(Message result) {
        return Step.done(result);
      }

      @Override
      public Step failed(FlowError error, Message message) throws Exception {
        return handle(branches, error, message);
      }
    };
  }

  /**
   * What a scope with these error branches does with an error its chain ended with ({@code try}, a
   * flow reached by a flow-ref): the first branch that takes it runs on the failed message, whose
   * result ends the scope ({@link Continue}) or after which the error goes on ({@link Propagate});
   * when none takes it the error goes on. An error in a branch wins, the original suppressed in it.
   *
   * @param branches the branches, tried in order
   * @param error what failed
   * @param atFailure the message as it was when the chain failed
   */
  static Step handle(List<OnError> branches, FlowError error, Message atFailure) throws Exception {
    Throwable cause = error.cause();
    Message failed = atFailure.withError(error);
    for (OnError branch : branches) {
      boolean matches;
      try {
        matches = branch.matches(failed, cause);
      } catch (RuntimeException whenFailed) {
        whenFailed.addSuppressed(cause);
        throw whenFailed;
      }
      if (matches) {
        return Step.run(
            branch.processors(),
            failed,
            new Step.Then() {
              @Override
              public Step completed(Message result) throws Exception {
                if (branch instanceof Propagate) {
                  throw Step.rethrow(cause);
                }
                return Step.done(result.withError(null));
              }

              @Override
              public Step failed(FlowError again, Message message) throws Exception {
                if (again.cause() != cause) {
                  again.cause().addSuppressed(cause);
                }
                throw Step.rethrow(again.cause());
              }
            });
      }
    }
    throw Step.rethrow(cause);
  }

  /**
   * Handles the error and lets the flow succeed with what the processors return.
   *
   * @param types the errors taken
   * @param when an extra condition, or null
   * @param processors what runs
   */
  record Continue(List<String> types, Expression when, List<Processor> processors)
      implements OnError {
    /** Copies the lists. */
    public Continue {
      types = List.copyOf(types);
      processors = List.copyOf(processors);
    }
  }

  /**
   * Runs the processors, then fails the flow with the original error.
   *
   * @param types the errors taken
   * @param when an extra condition, or null
   * @param processors what runs
   */
  record Propagate(List<String> types, Expression when, List<Processor> processors)
      implements OnError {
    /** Copies the lists. */
    public Propagate {
      types = List.copyOf(types);
      processors = List.copyOf(processors);
    }
  }
}
