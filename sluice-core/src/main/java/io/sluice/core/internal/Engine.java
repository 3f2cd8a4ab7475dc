package io.sluice.core.internal;

import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Scope;
import io.sluice.core.spi.Step;
import java.time.Duration;

/** The part of a flow that decides which thread runs what: one per processing strategy. */
abstract class Engine {

  /** Takes a message from the source, applying the strategy's backpressure. */
  abstract void enter(Execution execution);

  /** Starts an {@code async} scope's execution, detached from the caller. */
  abstract void detach(Execution execution);

  /**
   * Starts a route a scope forked beside its message. By default as {@link #detach}; the pooled
   * strategies give it a virtual thread, so that routes waiting for routes of their own never wait
   * for a pool they fill themselves.
   */
  void fork(Execution execution) {
    detach(execution);
  }

  /**
   * Hands the execution to another thread when {@code next} belongs elsewhere (and calls {@link
   * Execution#placed()} before doing so); false to run it here.
   */
  abstract boolean handOver(Execution execution, Processor next);

  /** Runs one processor of {@code execution} on the current thread. */
  Message invoke(Execution execution, Processor processor, Message message) throws Exception {
    Message result = processor.process(message);
    if (result == null) {
      throw new SluiceException(
          "Processor '"
              + processor.name()
              + "' returned null; a processor must return a message"
              + " (return the one it was given to leave it unchanged)");
    }
    return result;
  }

  /** Enters a scope of {@code execution} on the current thread: the step it starts with. */
  Step enter(Execution execution, Scope scope, Message message) throws Exception {
    return scope.enter(message);
  }

  /**
   * Called once when an execution ends, whichever way, just before its future completes: the room
   * the message took in the flow is free again.
   */
  void released(Execution execution) {}

  /**
   * Whether a scope's wait lets go of the thread, the execution resumed later by {@link #resume};
   * false for the strategies that give each message a thread of its own, which waits.
   */
  boolean resumesElsewhere() {
    return false;
  }

  /** Runs an execution whose wait ended (only when {@link #resumesElsewhere()}). */
  void resume(Execution execution) {
    throw new IllegalStateException("this engine waits in place");
  }

  /** Stops taking work; work already taken still runs. */
  abstract void shutdown();

  /** Waits for the engine's own threads; true when they ended in time. */
  abstract boolean awaitTermination(Duration timeout) throws InterruptedException;

  /** Interrupts what still runs. */
  abstract void shutdownNow();
}
