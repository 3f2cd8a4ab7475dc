package io.sluice.core.internal;

import io.sluice.core.FlowError;
import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.flow.OnError;
import io.sluice.core.logging.LogContext;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Scope;
import io.sluice.core.spi.Step;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One message's way through a chain of processors. It runs processors on the current thread until
 * the engine says the next one belongs elsewhere, then hands itself over and returns; the thread
 * that picks it up carries on from the same place. On an error it switches to the matching error
 * branch and runs that branch's processors the same way.
 */
final class Execution implements StageTask, LogContext.Work {

  private final FlowRuntime flow;
  private final CompletableFuture<Message> result;

  /**
   * When the message came in ({@link System#nanoTime}), for the flow's duration timer; 0 when it is
   * not one of the timed sample.
   */
  private final long started;

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

  /**
   * How deep scopes may nest in one message: far beyond any flow written by hand, so only a
   * flow-ref calling its own flow without end reaches it, with an error instead of running out of
   * memory.
   */
  static final int MAX_DEPTH = 100_000;

  /** The chains of the scopes the message is in, innermost first; null in the flow's own. */
  private Frame frame;

  private int depth;

  /** What a wait ended with, taken by the thread that resumes the execution. */
  private volatile Resumption resumption;

  /** Whether a scope may cut this execution short (a forked route). */
  private final boolean cancellable;

  private volatile boolean cancelled;
  private volatile RuntimeException cancelReason;

  /** What cuts short the wait of a cancellable execution, while it waits. */
  private volatile Consumer<RuntimeException> waiting;

  private final AtomicBoolean completedOnce = new AtomicBoolean();
  private final Object runnerLock = new Object();
  private Thread runner;

  /** Where a scope's chain returns to, and who decides what follows it. */
  private record Frame(List<Processor> chain, int index, Step.Then then, Frame parent) {}

  /** The step a wait gave, or its error. */
  private record Resumption(Step step, Throwable error) {}

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
    this(flow, chain, message, errorHandler, false);
  }

  /**
   * A message's way through {@code chain}; a {@code cancellable} one (a forked route) can be cut
   * short by {@link #cancel}.
   */
  Execution(
      FlowRuntime flow,
      List<Processor> chain,
      Message message,
      List<OnError> errorHandler,
      boolean cancellable) {
    this.cancellable = cancellable;
    this.started = FlowRuntime.timesThisOne() ? System.nanoTime() : 0;
    this.flow = flow;
    this.chain = chain;
    this.message = message;
    this.errorHandler = errorHandler;
    this.result = new CompletableFuture<>();
  }

  CompletableFuture<Message> result() {
    return result;
  }

  @Override
  public String flowName() {
    return flow.name();
  }

  @Override
  public Message currentMessage() {
    return message;
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

  /** Runs on the current thread until the chain ends, the engine hands it over or a scope waits. */
  @Override
  public void run() {
    entered();
    if (cancellable && !claimThread()) {
      abandonFrames(cancelReason);
      return;
    }
    LogContext.Work before = LogContext.enter(this);
    try {
      if (resumption != null && !resume()) {
        return;
      }
      runChains();
    } finally {
      LogContext.leave(before);
      if (cancellable) {
        releaseThread();
      }
    }
  }

  private void runChains() {
    Engine engine = flow.engine();
    while (true) {
      if (index >= chain.size()) {
        if (frame == null) {
          finish();
          return;
        }
        if (!endFrame()) {
          return;
        }
        continue;
      }
      if (cancelled) {
        abandonFrames(cancelReason);
        return;
      }
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
          abandonFrames(handOverFailed);
          complete(null, handOverFailed);
          return;
        }
      }
      try {
        if (processor instanceof Scope scope) {
          if (!take(engine.enter(this, scope, message))) {
            return;
          }
        } else {
          message = engine.invoke(this, processor, message);
          index++;
        }
      } catch (Throwable error) {
        if (!fail(processor, error)) {
          return;
        }
      }
    }
  }

  /**
   * Does what a scope asked: goes on after it, pushes the chain it wants run, or waits; false when
   * the execution leaves this thread.
   */
  private boolean take(Step step) throws Exception {
    switch (step) {
      case Step.Done done -> {
        message = done.message();
        index++;
        return true;
      }
      case Step.Run run -> {
        if (depth == MAX_DEPTH) {
          throw new SluiceException(
              "Scopes nested "
                  + MAX_DEPTH
                  + " deep in flow '"
                  + flow.name()
                  + "' (a flow-ref that calls its own flow without end?)");
        }
        frame = new Frame(chain, index, run.then(), frame);
        depth++;
        chain = run.chain();
        index = 0;
        message = run.message();
        return true;
      }
      case Step.Await await -> {
        return await(await);
      }
    }
  }

  /** A scope's chain ended: back to the scope, which says what follows; false to leave. */
  private boolean endFrame() {
    Frame ended = popFrame();
    Processor scope = chain.get(index);
    try {
      return take(ended.then.completed(message));
    } catch (Throwable error) {
      return fail(scope, error);
    }
  }

  private Frame popFrame() {
    Frame ended = frame;
    frame = ended.parent;
    depth--;
    chain = ended.chain;
    index = ended.index;
    return ended;
  }

  /**
   * Waits for a scope's stage: without holding the thread when the engine resumes the execution
   * elsewhere (false: the execution leaves this thread), else on this thread (a thread-per-message
   * strategy), going on with the step it gives.
   */
  private boolean await(Step.Await await) throws Exception {
    CompletionStage<? extends Step> next = await.next();
    if (cancellable) {
      waiting = await.cancel();
      if (cancelled) {
        // Cancelled before the wait was known: what it waits for is cut short now.
        cutShort(cancelReason);
      }
    }
    if (flow.engine().resumesElsewhere()) {
      next.whenComplete(
          (step, error) -> {
            waiting = null;
            resumption = new Resumption(step, error);
            flow.engine().resume(this);
          });
      return false;
    }
    Step step;
    try {
      step = next.toCompletableFuture().get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    } finally {
      waiting = null;
    }
    return take(step);
  }

  /**
   * Cuts short what the execution waits for (a nested scope's routes). A scope's cancel is
   * idempotent: the cancel and the wait's start may both call it.
   */
  private void cutShort(RuntimeException reason) {
    Consumer<RuntimeException> cancel = waiting;
    if (cancel != null) {
      cancel.accept(reason);
    }
  }

  /** Takes the step a wait ended with; false when the execution leaves this thread. */
  private boolean resume() {
    Resumption r = resumption;
    resumption = null;
    Processor scope = chain.get(index);
    if (r.error != null) {
      Throwable error =
          r.error instanceof CompletionException c && c.getCause() != null ? c.getCause() : r.error;
      return fail(scope, error);
    }
    try {
      return take(r.step);
    } catch (Throwable error) {
      return fail(scope, error);
    }
  }

  /**
   * An error: the innermost scope whose chain it left decides what follows, then the next one out,
   * then the flow's error handler; false when the execution leaves this thread.
   */
  private boolean fail(Processor processor, Throwable error) {
    if (error instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    if (cancelled) {
      abandonFrames(cancelReason);
      return false;
    }
    if (error instanceof Error fatal && !(error instanceof AssertionError)) {
      abandonFrames(fatal);
      complete(null, fatal);
      return false;
    }
    Throwable current = error;
    Processor where = processor;
    while (frame != null) {
      Frame left = popFrame();
      Processor scope = chain.get(index);
      try {
        return take(left.then.failed(new FlowError(flow.name(), where.name(), current), message));
      } catch (Throwable again) {
        if (again instanceof Error fatal && !(again instanceof AssertionError)) {
          abandonFrames(fatal);
          complete(null, fatal);
          return false;
        }
        current = again;
        where = scope;
      }
    }
    return failFlow(where, current);
  }

  /** The flow's own error handler takes an error no scope took; false when the execution ended. */
  private boolean failFlow(Processor processor, Throwable error) {
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

  /** Whether this is a route forked beside its message (counted as that message, not apart). */
  boolean forked() {
    return cancellable;
  }

  /** When the message came in ({@link System#nanoTime}); 0 when it is not timed. */
  long started() {
    return started;
  }

  /**
   * Cuts a forked execution short: it fails with {@code reason} now, runs no further processor, and
   * the thread running one is interrupted.
   */
  void cancel(RuntimeException reason) {
    cancelReason = reason;
    cancelled = true;
    // Before the interrupt: a thread waiting in place forgets its wait as soon as it wakes.
    cutShort(reason);
    synchronized (runnerLock) {
      if (runner != null) {
        runner.interrupt();
      }
    }
    complete(null, reason);
  }

  /** Records the thread running a cancellable execution; false when it was cancelled already. */
  private boolean claimThread() {
    synchronized (runnerLock) {
      if (cancelled) {
        return false;
      }
      runner = Thread.currentThread();
      return true;
    }
  }

  private void releaseThread() {
    synchronized (runnerLock) {
      if (runner == Thread.currentThread()) {
        runner = null;
        if (cancelled) {
          // The interrupt was meant for the cancelled work, not for what the thread runs next.
          Thread.interrupted();
        }
      }
    }
  }

  @Override
  public void refused(RuntimeException reason) {
    abandonFrames(reason);
    complete(null, reason);
  }

  /**
   * The message stops inside its scopes (cut short, refused, a JVM error): each scope, innermost
   * first, lets go of what it holds for it (a try's transaction is rolled back), as none of their
   * chains will end.
   */
  private void abandonFrames(Throwable reason) {
    while (frame != null) {
      Frame left = popFrame();
      try {
        left.then.abandoned(reason);
      } catch (RuntimeException e) {
        if (reason != null && reason != e) {
          reason.addSuppressed(e);
        }
      }
    }
  }

  private void complete(Message value, Throwable error) {
    if (cancellable && !completedOnce.compareAndSet(false, true)) {
      return;
    }
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
