package io.sluice.core.internal;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.sluice.core.ExhaustedAction;
import io.sluice.core.FlowBusyException;
import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThrottledException;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Scope;
import io.sluice.core.spi.Step;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The default strategy. CPU_LITE work stays on the thread that holds the message; CPU_INTENSIVE
 * work moves to the shared CPU pool; BLOCKING_IO work moves to a virtual thread and runs under the
 * flow's adaptive limit; a BLOCKING_IO scope (a call that waits holding no thread) holds a permit
 * of that limit from its enter to the end of its wait. The only bound a user might set is how many
 * messages the flow holds at once, and its default is generous: concurrency is limited by permits,
 * never by pool size.
 */
final class AutoEngine extends Engine {

  private final String flow;
  private final ProcessingStrategy.Auto config;
  private final CpuPool cpu;
  private final Semaphore admission;
  private final AdaptiveLimiter limiter;
  private final VirtualThreads virtualThreads;
  private final LongAdder refused = new LongAdder();
  private final LongAdder throttled = new LongAdder();
  private final LongAdder completed = new LongAdder();
  private final Discards discarded;

  AutoEngine(String flow, ProcessingStrategy.Auto config, CpuPool cpu, MeterRegistry registry) {
    this.flow = flow;
    this.config = config;
    this.cpu = cpu;
    this.admission = new Semaphore(config.maxInFlight());
    this.limiter = new AdaptiveLimiter(config.initialLimit(), config.maxLimit());
    this.virtualThreads = new VirtualThreads("sluice-" + flow + "-io-");
    Tags tags = Tags.of("flow", flow, "stage", "auto");
    this.discarded = new Discards(flow, "auto", registry);
    Gauge.builder("sluice.stage.limit", limiter, AdaptiveLimiter::limit)
        .tags(tags)
        .description("The adaptive limit on concurrent BLOCKING_IO calls")
        .register(registry);
    Gauge.builder(
            "sluice.stage.ceiling",
            limiter,
            l -> l.ceiling() == Integer.MAX_VALUE ? Double.NaN : l.ceiling())
        .tags(tags)
        .description(
            "The concurrency the adaptive limit holds at after the downstream refused more (NaN:"
                + " none known)")
        .register(registry);
    Gauge.builder("sluice.stage.active", limiter, AdaptiveLimiter::inFlight)
        .tags(tags)
        .description("BLOCKING_IO calls running")
        .register(registry);
    Gauge.builder("sluice.stage.queued", this, e -> e.limiter.waiting())
        .tags(tags)
        .description("BLOCKING_IO calls waiting for a permit")
        .register(registry);
    FunctionCounter.builder("sluice.stage.completed", completed, LongAdder::sum)
        .tags(tags)
        .description("BLOCKING_IO calls that ended, whichever way")
        .register(registry);
    FunctionCounter.builder("sluice.stage.rejected", refused, LongAdder::sum)
        .tags(tags)
        .description("Messages refused because the flow was full")
        .register(registry);
    FunctionCounter.builder("sluice.stage.throttled", throttled, LongAdder::sum)
        .tags(tags)
        .description("BLOCKING_IO calls that reported throttling or a timeout")
        .register(registry);
  }

  @Override
  void enter(Execution execution) {
    boolean admitted;
    try {
      admitted =
          config.backpressure() == ExhaustedAction.WAIT && execution.mayWait()
              ? admission.tryAcquire(config.waitTimeout().toNanos(), TimeUnit.NANOSECONDS)
              : admission.tryAcquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      admitted = false;
    }
    if (!admitted && config.backpressure() == ExhaustedAction.DISCARD) {
      execution.refused(discarded.discard("maxInFlight " + config.maxInFlight() + " reached"));
      return;
    }
    if (!admitted) {
      refused.increment();
      execution.refused(
          new FlowBusyException(
              flow,
              "auto",
              execution.mayWait()
                  ? FlowBusyException.Reason.IN_FLIGHT_LIMIT
                  : FlowBusyException.Reason.SOURCE_CANNOT_WAIT,
              "maxInFlight "
                  + config.maxInFlight()
                  + " reached, "
                  + (execution.mayWait()
                      ? "backpressure " + config.backpressure()
                      : "the source cannot wait")));
      return;
    }
    execution.admitted();
    execution.run();
  }

  @Override
  void detach(Execution execution) {
    execution.startsOn(Execution.Lane.IO);
    startVirtual(execution);
  }

  /**
   * A forked route starts on the thread that forks it, where its CPU_LITE steps run until it first
   * waits or meets work that belongs elsewhere (blocking work goes to a virtual thread as always,
   * so a route that blocks delays no other): a route that sends a call and waits costs no thread
   * start. Routes forked inside routes started this way nest on the thread's stack, so past {@link
   * #INLINE_FORKS} of them on one thread (a recursion through a scatter-gather) a route starts on a
   * virtual thread of its own, as a detached execution does.
   */
  @Override
  void fork(Execution execution) {
    int[] depth = FORKS_ON_THIS_THREAD.get();
    if (depth[0] >= INLINE_FORKS) {
      detach(execution);
      return;
    }
    depth[0]++;
    try {
      execution.run();
    } finally {
      depth[0]--;
    }
  }

  /** How many forked routes may run nested on one thread's stack. */
  static final int INLINE_FORKS = 16;

  private static final ThreadLocal<int[]> FORKS_ON_THIS_THREAD =
      ThreadLocal.withInitial(() -> new int[1]);

  @Override
  boolean resumesElsewhere() {
    return true;
  }

  /**
   * A scope's wait ended: the execution goes on on a virtual thread, from which CPU_LITE work runs
   * in place and the rest moves where its type says, as from any other.
   */
  @Override
  void resume(Execution execution) {
    execution.startsOn(Execution.Lane.IO);
    startVirtual(execution);
  }

  @Override
  boolean handOver(Execution execution, Processor next) {
    ProcessingType type = next.processingType();
    if (type == ProcessingType.CPU_INTENSIVE && execution.lane() != Execution.Lane.CPU) {
      execution.placed(Execution.Lane.CPU);
      cpu.execute(execution);
      return true;
    }
    if (type == ProcessingType.BLOCKING_IO
        && !(next instanceof Scope)
        && execution.lane() != Execution.Lane.IO) {
      // The source's own thread may be virtual too; blocking work still gets a thread of its
      // own so the source keeps feeding the flow.
      execution.placed(Execution.Lane.IO);
      startVirtual(execution);
      return true;
    }
    return false;
  }

  @Override
  Message invoke(Execution execution, Processor processor, Message message) throws Exception {
    if (processor.processingType() != ProcessingType.BLOCKING_IO) {
      return super.invoke(execution, processor, message);
    }
    // The message was admitted: it waits for its turn however long that takes (admission,
    // maxInFlight, bounds how many wait). Failing it here would run it through the flow's error
    // handler as if a processor had failed, and a catch-all branch would swallow it.
    AdaptiveLimiter.Permit permit =
        limiter.acquire(Long.MAX_VALUE, TimeUnit.NANOSECONDS, execution.awaited());
    Throwable error = null;
    try {
      return super.invoke(execution, processor, message);
    } catch (Throwable e) {
      error = e;
      throw e;
    } finally {
      release(permit, outcome(error));
    }
  }

  /**
   * A BLOCKING_IO scope holds a permit as a BLOCKING_IO processor does, from its enter until its
   * wait ends, however it ends: its outcome and latency go to the limit the same way. With the
   * limit reached the message waits for a permit holding no thread, and enters the scope on a
   * virtual thread once one frees (the thread that freed it may be an event loop).
   */
  @Override
  Step enter(Execution execution, Scope scope, Message message) throws Exception {
    if (scope.processingType() != ProcessingType.BLOCKING_IO) {
      return super.enter(execution, scope, message);
    }
    CompletableFuture<AdaptiveLimiter.Permit> permit = limiter.acquireLater(execution.awaited());
    if (permit.isDone()) {
      return holding(permit.join(), execution, scope, message);
    }
    CompletableFuture<Step> entered =
        permit.thenApplyAsync(
            granted -> {
              try {
                return holding(granted, execution, scope, message);
              } catch (Exception e) {
                throw new CompletionException(e);
              }
            },
            virtualThreads::start);
    return Step.await(
        entered,
        reason -> {
          if (!limiter.withdraw(permit)) {
            // Granted already: the wait it entered is cut short, which gives the permit back.
            entered.thenAccept(
                step -> {
                  if (step instanceof Step.Await await) {
                    await.cancel().accept(reason);
                  }
                });
          }
        });
  }

  /** Enters the scope holding {@code permit}, given back when the scope's wait ends. */
  private Step holding(
      AdaptiveLimiter.Permit permit, Execution execution, Scope scope, Message message)
      throws Exception {
    Step step;
    try {
      step = super.enter(execution, scope, message);
    } catch (Throwable e) {
      release(permit, outcome(e));
      throw e;
    }
    if (!(step instanceof Step.Await await)) {
      release(permit, AdaptiveLimiter.Outcome.SUCCESS);
      return step;
    }
    AtomicBoolean once = new AtomicBoolean();
    return Step.await(
        await.next().whenComplete((done, error) -> release(permit, outcome(error), once)),
        reason -> {
          await.cancel().accept(reason);
          // A scope whose cancel leaves its wait running still gives its permit back now.
          release(permit, AdaptiveLimiter.Outcome.IGNORED, once);
        });
  }

  /**
   * How a call that held a permit ended: a throttling reply or a timeout is overload, which lowers
   * the limit; a success's latency feeds it; any other failure says nothing about load.
   */
  private static AdaptiveLimiter.Outcome outcome(Throwable error) {
    Throwable cause =
        error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error;
    if (cause == null) {
      return AdaptiveLimiter.Outcome.SUCCESS;
    }
    return cause instanceof ThrottledException
            || cause instanceof TimeoutException
            || cause instanceof SocketTimeoutException
        ? AdaptiveLimiter.Outcome.DROPPED
        : AdaptiveLimiter.Outcome.IGNORED;
  }

  private void release(
      AdaptiveLimiter.Permit permit, AdaptiveLimiter.Outcome outcome, AtomicBoolean once) {
    if (once.compareAndSet(false, true)) {
      release(permit, outcome);
    }
  }

  /** Gives a permit back, counting the call as ended (and as throttled when it was overload). */
  private void release(AdaptiveLimiter.Permit permit, AdaptiveLimiter.Outcome outcome) {
    if (outcome == AdaptiveLimiter.Outcome.DROPPED) {
      throttled.increment();
    }
    limiter.release(permit, outcome);
    completed.increment();
  }

  @Override
  void released(Execution execution) {
    if (execution.isAdmitted()) {
      admission.release();
    }
  }

  int limit() {
    return limiter.limit();
  }

  /** Starts a virtual thread for the execution, tracked so a stop can wait for it or end it. */
  private void startVirtual(Execution execution) {
    virtualThreads.start(execution);
  }

  @Override
  void shutdown() {}

  /** Waits for the flow's virtual threads (blocking work) to end. */
  @Override
  boolean awaitTermination(Duration timeout) throws InterruptedException {
    return virtualThreads.awaitTermination(timeout);
  }

  /** Interrupts the blocking work still running or waiting for a permit. */
  @Override
  void shutdownNow() {
    virtualThreads.interruptAll();
  }
}
