package io.sluice.core.spi;

import io.sluice.core.FlowError;
import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Runs a scope's steps on the calling thread, for scopes called outside a flow: chains one
 * processor after the other (a nested scope the same way, on the thread's stack), waits blocking.
 */
final class InlineSteps {

  private InlineSteps() {}

  static Message run(Scope scope, Message message) throws Exception {
    Step step = scope.enter(message);
    while (true) {
      switch (step) {
        case Step.Done done -> {
          return done.message();
        }
        case Step.Await await -> step = join(await);
        case Step.Run run -> {
          Message result = run.message();
          Processor current = null;
          try {
            for (Processor processor : run.chain()) {
              current = processor;
              result = processor.process(result);
              if (result == null) {
                throw new SluiceException(
                    "Processor '"
                        + processor.name()
                        + "' returned null; a processor must return a"
                        + " message (return the one it was given to leave it unchanged)");
              }
            }
          } catch (Exception | AssertionError error) {
            step =
                run.then()
                    .failed(
                        new FlowError(
                            "(none)", current == null ? scope.name() : current.name(), error),
                        result);
            continue;
          }
          step = run.then().completed(result);
        }
      }
    }
  }

  private static Step join(Step.Await await) throws Exception {
    try {
      return await.next().toCompletableFuture().get();
    } catch (ExecutionException e) {
      throw rethrow(e.getCause());
    } catch (InterruptedException e) {
      // The caller gives up: what the scope waits for is cut short, not left running.
      await.cancel().accept(new SluiceException("The scope's wait was interrupted", e));
      throw e;
    } catch (CancellationException e) {
      throw new SluiceException("The scope's wait was cancelled", e);
    }
  }

  /** The exception to throw for {@code error}: itself when checked or unchecked, else wrapped. */
  static Exception rethrow(Throwable error) {
    Throwable cause =
        error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error;
    if (cause instanceof Exception e) {
      return e;
    }
    if (cause instanceof Error e) {
      throw e;
    }
    return new SluiceException(String.valueOf(cause), cause);
  }
}
