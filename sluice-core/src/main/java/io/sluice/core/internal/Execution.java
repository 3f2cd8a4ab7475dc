package io.sluice.core.internal;

import io.sluice.core.FlowError;
import io.sluice.core.Message;
import io.sluice.core.flow.OnError;
import io.sluice.core.spi.Processor;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One message's way through a chain of processors. It runs processors on the current thread until
 * the engine says the next one belongs elsewhere, then hands itself over and returns; the thread
 * that picks it up carries on from the same place. On an error it switches to the matching error
 * branch and runs that branch's processors the same way.
 */
final class Execution implements StageTask {

  private final FlowRuntime flow;
  private final CompletableFuture<Message> result;
  private final List<OnError> errorHandler;
  private List<Processor> chain;
  private int index;
  private Message message;
  private OnError handling;
  private Throwable original;
  private boolean placed;
  private boolean admitted;
  private boolean offered;
  private boolean awaited;
  private Lane lane = Lane.CALLER;

  /** Which kind of thread the execution is on, as the auto engine placed it. */
  enum Lane {
    /** The thread that submitted it (a source's, or a pool stage's). */
    CALLER,
    /** The shared CPU pool. */
    CPU,
    /** A virtual thread of the flow's own. */
    IO
  }

  /** A message's way through {@code chain}, its errors handled by the flow's error handler. */
  Execution(FlowRuntime flow, List<Processor> chain, Message message) {
    this(flow, chain, message, flow.flow().errorHandler());
  }

  /**
   * A message's way through {@code chain} with these error branches; an {@code async} scope's copy
   * has none, so its errors end it without reaching the flow's handler.
   */
  Execution(FlowRuntime flow, List<Processor> chain, Message message, List<OnError> errorHandler) {
    this.flow = flow;
    this.chain = chain;
    this.message = message;
    this.errorHandler = errorHandler;
    this.result = new CompletableFuture<>();
  }

  CompletableFuture<Message> result() {
    return result;
  }

  /** Whether the next processor is the first sink of the main chain (staged's dispatcher hop). */
  boolean atFirstSink() {
    return handling == null
        && chain == flow.chain()
        && index == flow.flow().processors().size()
        && index < chain.size();
  }

  /** Marks that the engine let this execution in and must let it out when it ends. */
  void admitted() {
    admitted = true;
  }

  /**
   * Marks that the source offered this message: entering must not hold the source's thread. Such a
   * source (a network listener) has a client waiting for the answer, so the message is also
   * awaited.
   */
  void offered() {
    offered = true;
    awaited = true;
  }

  /**
   * Whether a client waits for this message's answer (a request a listener offered), so waiting
   * costs it its deadline, not only time.
   */
  boolean awaited() {
    return awaited;
  }

  /** Marks that the message got past the flow's entry, where an offer could be refused. */
  void entered() {
    offered = false;
  }

  @Override
  public boolean mayWait() {
    return !offered;
  }

  boolean isAdmitted() {
    return admitted;
  }

  Lane lane() {
    return lane;
  }

  /**
   * Marks that the engine is handing this execution to a thread of {@code newLane}, which must run
   * the current processor without asking the engine again.
   */
  void placed(Lane newLane) {
    lane = newLane;
    placed = true;
  }

  /** Records which kind of thread the execution starts on, without skipping the engine. */
  void startsOn(Lane newLane) {
    lane = newLane;
  }

  /**
   * Marks that the engine is handing this execution to another thread, which must run the current
   * processor without asking the engine again.
   */
  void placed() {
    placed = true;
  }

  /** Runs on the current thread until the chain ends or the engine hands it over. */
  @Override
  public void run() {
    entered();
    Engine engine = flow.engine();
    while (index < chain.size()) {
      Processor processor = chain.get(index);
      if (placed) {
        placed = false;
      } else {
        try {
          if (engine.handOver(this, processor)) {
            return;
          }
        } catch (RuntimeException handOverFailed) {
          // The thread it was meant for is gone (a pool shut down under it): end the message
          // with the error rather than leave it hanging.
          complete(null, handOverFailed);
          return;
        }
      }
      try {
        message = engine.invoke(this, processor, message);
        index++;
      } catch (Throwable error) {
        if (!fail(processor, error)) {
          return;
        }
      }
    }
    finish();
  }

  /** Switches to the error branch; false when the execution has ended. */
  private boolean fail(Processor processor, Throwable error) {
    if (error instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    if (error instanceof Error fatal && !(error instanceof AssertionError)) {
      complete(null, fatal);
      return false;
    }
    if (handling != null) {
      // The error branch itself failed: that error wins, the original rides along (unless the
      // branch rethrew the original itself, which cannot suppress itself).
      if (error != original) {
        error.addSuppressed(original);
      }
      complete(null, error);
      return false;
    }
    FlowError flowError = new FlowError(flow.name(), processor.name(), error);
    Message failed = message.withError(flowError);
    for (OnError branch : errorHandler) {
      boolean matches;
      try {
        matches = branch.matches(failed, error);
      } catch (RuntimeException whenFailed) {
        whenFailed.addSuppressed(error);
        complete(null, whenFailed);
        return false;
      }
      if (matches) {
        handling = branch;
        original = error;
        chain = branch.processors();
        index = 0;
        message = failed;
        return true;
      }
    }
    complete(null, error);
    return false;
  }

  private void finish() {
    if (handling instanceof OnError.Propagate) {
      complete(null, original);
    } else {
      complete(handling == null ? message : message.withError(null), null);
    }
  }

  @Override
  public void refused(RuntimeException reason) {
    complete(null, reason);
  }

  private void complete(Message value, Throwable error) {
    // The flow lets go of the message first, so a source that answers (an HTTP response) and is
    // handed the next message at once finds room for it. Then the future: the source's completion
    // work (moving a file, acknowledging an entry) runs before the message stops counting as in
    // flight, so a graceful stop waits for it.
    flow.released(this);
    try {
      if (error == null) {
        result.complete(value);
      } else {
        result.completeExceptionally(error);
      }
    } finally {
      flow.finished(this, error);
    }
  }
}
