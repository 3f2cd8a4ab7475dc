package io.sluice.core.internal;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.sluice.core.ExhaustedAction;
import io.sluice.core.FlowBusyException;
import io.sluice.core.ThreadingProfile;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One stage's pool and queue under a {@link ThreadingProfile}: platform threads started on demand
 * up to maxThreadsActive (of which maxThreadsIdle are kept when idle), a bounded queue of maxQueue,
 * and the profile's exhausted action when both are full. Its state is published as {@code
 * sluice.stage.*} meters tagged with flow and stage.
 */
final class ProfiledExecutor {

  private final String flow;
  private final String stage;
  private final ThreadingProfile profile;
  private final OnDemandQueue queue;
  // Tasks given to the pool and not finished: the one exact measure of whether a thread is idle
  // (a thread just started for a task does not count as active yet).
  private final AtomicInteger submitted = new AtomicInteger();
  private final AtomicInteger alive = new AtomicInteger();
  private final ThreadPoolExecutor pool;
  private final LongAdder rejected = new LongAdder();
  private final Discards discarded;
  private final LongAdder callerRuns = new LongAdder();
  // Raising the pool's core size is a read then a write; one thread at a time, or a smaller value
  // could overwrite a larger one.
  private final ReentrantLock keeping = new ReentrantLock();

  ProfiledExecutor(String flow, String stage, ThreadingProfile profile, MeterRegistry registry) {
    this.flow = flow;
    this.stage = stage;
    this.profile = profile;
    this.discarded = new Discards(flow, stage, registry);
    // No core threads at first: every thread starts on demand and dies after idleTtl without work,
    // but for the maxThreadsIdle the pool keeps (the core size rises with the threads started, see
    // keep()). The queue refuses a task while the pool may grow and no thread is idle, so the pool
    // grows up to maxThreadsActive before anything waits (a direct hand-over when maxQueue is 0).
    this.queue = profile.maxQueue() == 0 ? null : new OnDemandQueue(profile.maxQueue());
    BlockingQueue<Runnable> workQueue = queue == null ? new SynchronousQueue<>() : queue;
    this.pool =
        new ThreadPoolExecutor(
            0,
            profile.maxThreadsActive(),
            profile.idleTtl().toNanos(),
            TimeUnit.NANOSECONDS,
            workQueue,
            counted(threads("sluice-" + flow + "-" + stage)),
            (task, executor) -> {
              throw new RejectedExecutionException();
            }) {
          @Override
          protected void afterExecute(Runnable task, Throwable error) {
            submitted.decrementAndGet();
          }
        };
    if (queue != null) {
      queue.attach(pool, submitted::get, alive::get);
    }
    Tags tags = Tags.of("flow", flow, "stage", stage);
    Gauge.builder("sluice.stage.active", pool, ThreadPoolExecutor::getActiveCount)
        .tags(tags)
        .description("Threads of the stage busy with a message")
        .register(registry);
    Gauge.builder("sluice.stage.threads", pool, ThreadPoolExecutor::getPoolSize)
        .tags(tags)
        .description("Threads of the stage alive")
        .register(registry);
    Gauge.builder("sluice.stage.queued", pool, p -> p.getQueue().size())
        .tags(tags)
        .description("Messages waiting for a thread of the stage")
        .register(registry);
    Gauge.builder("sluice.stage.limit", profile, ThreadingProfile::maxThreadsActive)
        .tags(tags)
        .description("The stage's maxThreadsActive")
        .register(registry);
    FunctionCounter.builder(
            "sluice.stage.completed", pool, ThreadPoolExecutor::getCompletedTaskCount)
        .tags(tags)
        .description("Messages the stage finished")
        .register(registry);
    FunctionCounter.builder("sluice.stage.rejected", rejected, LongAdder::sum)
        .tags(tags)
        .description("Messages refused (REJECT, or WAIT timed out)")
        .register(registry);
    FunctionCounter.builder("sluice.stage.caller.runs", callerRuns, LongAdder::sum)
        .tags(tags)
        .description("Messages run on the caller's thread by CALLER_RUNS")
        .register(registry);
  }

  /** Hands a task to the stage, applying the exhausted action when it is full. */
  void execute(StageTask task) {
    submitted.incrementAndGet();
    if (handToPool(task)) {
      return;
    }
    if (pool.isShutdown()) {
      submitted.decrementAndGet();
      rejected.increment();
      task.refused(
          new FlowBusyException(
              flow, stage, FlowBusyException.Reason.NOT_RUNNING, "the flow is stopping"));
      return;
    }
    if (!task.mayWait()
        && (profile.exhaustedAction() == ExhaustedAction.WAIT
            || profile.exhaustedAction() == ExhaustedAction.CALLER_RUNS)) {
      // An offered message: the source's thread must not wait nor run the flow; it answers busy.
      submitted.decrementAndGet();
      rejected.increment();
      task.refused(
          new FlowBusyException(
              flow,
              stage,
              FlowBusyException.Reason.SOURCE_CANNOT_WAIT,
              "the source cannot wait, " + state()));
      return;
    }
    if (profile.exhaustedAction() == ExhaustedAction.WAIT && waitForRoom(task)) {
      return;
    }
    if (profile.exhaustedAction() == ExhaustedAction.DISCARD_OLDEST && dropOldestFor(task)) {
      return;
    }
    submitted.decrementAndGet();
    switch (profile.exhaustedAction()) {
      case WAIT -> {
        rejected.increment();
        task.refused(
            new FlowBusyException(
                flow,
                stage,
                FlowBusyException.Reason.WAIT_TIMED_OUT,
                (Thread.currentThread().isInterrupted()
                        ? "interrupted while waiting, "
                        : "waited " + profile.waitTimeout() + ", ")
                    + state()));
      }
      case REJECT -> {
        rejected.increment();
        task.refused(new FlowBusyException(flow, stage, state()));
      }
      case CALLER_RUNS -> {
        callerRuns.increment();
        task.run();
      }
      case DISCARD -> task.refused(discarded.discard(state()));
      case DISCARD_OLDEST -> {
        // The pool stopped while the task looked for room: nothing was dropped for it.
        rejected.increment();
        task.refused(
            new FlowBusyException(
                flow, stage, FlowBusyException.Reason.NOT_RUNNING, "the flow is stopping"));
      }
    }
  }

  /**
   * DISCARD_OLDEST: drops the task that waited longest in the queue (it ends as a discarded
   * message, counted and told to its sender) and queues this one in its place; false when the pool
   * stopped meanwhile. The profile guarantees a queue.
   */
  private boolean dropOldestFor(StageTask task) {
    while (!pool.isShutdown()) {
      String state = state();
      Runnable oldest = queue.poll();
      // Queued before the dropped one's sender hears of it: that runs the source's completion on
      // this thread, and the room must not wait for it. Another submitter may still take the room
      // first; then the next oldest goes.
      boolean queued = queue.force(task);
      if (oldest != null) {
        submitted.decrementAndGet();
        if (oldest instanceof StageTask dropped) {
          dropped.refused(discarded.discard(state, ExhaustedAction.DISCARD_OLDEST));
        }
      }
      if (queued) {
        if (pool.isShutdown() && pool.remove(task)) {
          submitted.decrementAndGet();
          rejected.increment();
          task.refused(
              new FlowBusyException(
                  flow, stage, FlowBusyException.Reason.NOT_RUNNING, "the flow is stopping"));
        }
        return true;
      }
    }
    return false;
  }

  /** Gives the task to the pool (a thread, or the queue); false when both are full. */
  private boolean handToPool(StageTask task) {
    try {
      pool.execute(task);
      return true;
    } catch (RejectedExecutionException full) {
      // The pool may have reached its maximum just after the queue told it to grow.
      return !pool.isShutdown() && queue != null && queue.force(task);
    }
  }

  /** WAIT: waits up to waitTimeout for room in the queue; true when the task got in. */
  private boolean waitForRoom(StageTask task) {
    try {
      // Offering to the queue directly is safe: the pool was full, so its threads are alive
      // and polling the queue.
      if (!pool.getQueue().offer(task, profile.waitTimeout().toNanos(), TimeUnit.NANOSECONDS)) {
        return false;
      }
      if (pool.isShutdown() && pool.remove(task)) {
        submitted.decrementAndGet();
        rejected.increment();
        task.refused(
            new FlowBusyException(
                flow, stage, FlowBusyException.Reason.NOT_RUNNING, "the flow is stopping"));
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The pool's state in words, for errors. */
  String state() {
    return "active="
        + pool.getActiveCount()
        + "/"
        + profile.maxThreadsActive()
        + ", queued="
        + pool.getQueue().size()
        + "/"
        + profile.maxQueue();
  }

  /** Stops taking tasks; queued ones still run. */
  void shutdown() {
    pool.shutdown();
  }

  /** Waits for the pool's threads to finish; true when they did in time. */
  boolean awaitTermination(Duration timeout) throws InterruptedException {
    return pool.awaitTermination(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Interrupts what still runs and refuses what still waits in the queue. */
  void shutdownNow() {
    // The pool hands back the tasks it drained from its queue; each holds a message whose future
    // must end, or its sender waits forever and the flow's in-flight count never drops.
    for (Runnable dropped : pool.shutdownNow()) {
      submitted.decrementAndGet();
      if (dropped instanceof StageTask task) {
        rejected.increment();
        task.refused(
            new FlowBusyException(
                flow,
                stage,
                FlowBusyException.Reason.NOT_RUNNING,
                "the flow stopped before it ran"));
      }
    }
  }

  int activeCount() {
    return pool.getActiveCount();
  }

  int poolSize() {
    return pool.getPoolSize();
  }

  int largestPoolSize() {
    return pool.getLargestPoolSize();
  }

  long rejectedCount() {
    return rejected.sum();
  }

  long discardedCount() {
    return discarded.count();
  }

  /**
   * Counts live threads without the pool's main lock, which getPoolSize() takes per call, and keeps
   * up to maxThreadsIdle of them when idle.
   */
  private ThreadFactory counted(ThreadFactory named) {
    return runnable ->
        named.newThread(
            () -> {
              keep(alive.incrementAndGet());
              try {
                runnable.run();
              } finally {
                alive.decrementAndGet();
              }
            });
  }

  /**
   * Raises the pool's core size with the threads started, up to maxThreadsIdle: the pool then keeps
   * that many when idle (a thread dies after idleTtl only while more than the core size live). A
   * core size set at once would start a thread for each of the first tasks, idle threads
   * notwithstanding; raised as threads start, it keeps them started on demand. Raising it to no
   * more than the threads alive starts none.
   */
  private void keep(int threadsAlive) {
    int kept = Math.min(threadsAlive, profile.maxThreadsIdle());
    if (kept <= pool.getCorePoolSize()) {
      return;
    }
    keeping.lock();
    try {
      if (kept > pool.getCorePoolSize()) {
        pool.setCorePoolSize(kept);
      }
    } finally {
      keeping.unlock();
    }
  }

  static ThreadFactory threads(String prefix) {
    AtomicInteger counter = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
