package io.sluice.core.spi;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.Message;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Storage;
import io.sluice.core.vm.queue.VmQueues;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The services a flow offers the processors and the source it is made of. */
public interface FlowContext {

  /** The flow's name. */
  String flowName();

  /** The application's clock; tests replace it with a manual one. */
  Clock clock();

  /** The application's timer; tests replace it with a manual one. */
  TimerService timer();

  /** Where metrics go. */
  MeterRegistry meterRegistry();

  /** The application's in-memory VM queues. */
  VmQueues vmQueues();

  /**
   * The application's storage: its object stores and durable queues, opened on first use (so an
   * application that keeps nothing opens no database). Fails with a {@link
   * io.sluice.core.store.StoreException} when it cannot be opened.
   */
  Storage storage();

  /**
   * The application's stored values: its named serializers and codecs, and the allow-list every
   * read goes through. A component that keeps values of its own (in a file, a cache, a message it
   * sends) writes and reads them with these, as the application's stores do, so old records stay
   * readable when the default serializer changes.
   */
  StoredValues storedValues();

  /**
   * Runs a chain of processors on a copy of the message, detached from the caller (the {@code
   * async} scope), under the flow's processing strategy. The flow counts it as in flight, so a
   * graceful stop waits for it. The flow's error handler does not run for it: the returned future
   * completes with its result or error.
   */
  CompletableFuture<Message> runDetached(List<Processor> chain, Message message);

  /**
   * Runs a chain of processors on {@code message} beside the caller, as {@link #runDetached} does,
   * for a scope that runs routes in parallel and waits for them ({@code scatter-gather}, {@code
   * parallel-foreach}); the handle can cut it short. By default it cannot be cut short.
   */
  default Forked fork(List<Processor> chain, Message message) {
    CompletableFuture<Message> result = runDetached(chain, message);
    return new Forked() {
      @Override
      public CompletableFuture<Message> result() {
        return result;
      }

      @Override
      public void cancel(RuntimeException reason) {
        result.completeExceptionally(reason);
      }
    };
  }

  /**
   * The flow named {@code name} as a scope: its processors and sinks run on the message under the
   * caller's strategy, its own error handler taking their errors ({@code flow-ref}). Fails with a
   * {@link io.sluice.core.SluiceException} naming the flows there are when there is no such flow.
   */
  default Scope flowReference(String name) {
    throw new io.sluice.core.SluiceException(
        "flow-ref '"
            + name
            + "' cannot run here: only a flow of an application reaches other flows");
  }

  /** A chain forked beside its caller. */
  interface Forked {

    /** Completes with the chain's result or its error. */
    CompletableFuture<Message> result();

    /**
     * Cuts the chain short: its result fails with {@code reason} at once, the thread running it is
     * interrupted, and it runs no further processor.
     */
    void cancel(RuntimeException reason);
  }
}
