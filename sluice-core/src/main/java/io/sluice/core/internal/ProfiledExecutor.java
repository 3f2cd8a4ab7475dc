package io.sluice.core.internal;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
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

/**
 * One stage's pool and queue under a {@link ThreadingProfile}: platform threads started on demand
 * up to maxThreadsActive, a bounded queue of maxQueue, and the profile's exhausted action when both
 * are full. Its state is published as {@code sluice.stage.*} meters tagged with flow and stage.
 */
final class ProfiledExecutor {

  private final String flow;
  private final String stage;
  private final ThreadingProfile profile;
  private final OnDemandQueue queue;
  private final ThreadPoolExecutor pool;
  private final LongAdder rejected = new LongAdder();
  private final LongAdder discarded = new LongAdder();
  private final LongAdder callerRuns = new LongAdder();

  ProfiledExecutor(String flow, String stage, ThreadingProfile profile, MeterRegistry registry) {
    this.flow = flow;
    this.stage = stage;
    this.profile = profile;
    // No core threads: every thread starts on demand and dies after idleTtl without work. The
    // queue refuses a task while the pool may grow and no thread is idle, so the pool grows up to
    // maxThreadsActive before anything waits (a direct hand-over when maxQueue is 0).
    this.queue = profile.maxQueue() == 0 ? null : new OnDemandQueue(profile.maxQueue());
    BlockingQueue<Runnable> workQueue = queue == null ? new SynchronousQueue<>() : queue;
    this.pool =
        new ThreadPoolExecutor(
            0,
            profile.maxThreadsActive(),
            profile.idleTtl().toNanos(),
            TimeUnit.NANOSECONDS,
            workQueue,
            threads("sluice-" + flow + "-" + stage),
            (task, executor) -> {
              throw new RejectedExecutionException();
            });
    if (queue != null) {
      queue.attach(pool);
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
    FunctionCounter.builder("sluice.stage.discarded", discarded, LongAdder::sum)
        .tags(tags)
        .description("Messages dropped by DISCARD")
        .register(registry);
    FunctionCounter.builder("sluice.stage.caller.runs", callerRuns, LongAdder::sum)
        .tags(tags)
        .description("Messages run on the caller's thread by CALLER_RUNS")
        .register(registry);
  }

  /** Hands a task to the stage, applying the exhausted action when it is full. */
  void execute(StageTask task) {
    try {
      pool.execute(task);
      return;
    } catch (RejectedExecutionException full) {
      if (pool.isShutdown()) {
        rejected.increment();
        task.refused(new FlowBusyException(flow, stage, "the flow is stopping"));
        return;
      }
      if (queue != null && queue.force(task)) {
        return; // the pool reached its maximum just now, but the queue had room
      }
    }
    switch (profile.exhaustedAction()) {
      case WAIT -> waitForRoom(task);
      case REJECT -> {
        rejected.increment();
        task.refused(new FlowBusyException(flow, stage, state()));
      }
      case CALLER_RUNS -> {
        callerRuns.increment();
        task.run();
      }
      case DISCARD -> {
        discarded.increment();
        task.refused(new FlowBusyException(flow, stage, "discarded, " + state()));
      }
    }
  }

  private void waitForRoom(StageTask task) {
    Duration timeout = profile.waitTimeout();
    try {
      // Offering to the queue directly is safe: every thread polls it, and the pool was full,
      // so at least one thread is alive to take the task.
      if (pool.getQueue().offer(task, timeout.toNanos(), TimeUnit.NANOSECONDS)) {
        if (pool.isShutdown() && pool.remove(task)) {
          rejected.increment();
          task.refused(new FlowBusyException(flow, stage, "the flow is stopping"));
        }
        return;
      }
      rejected.increment();
      task.refused(new FlowBusyException(flow, stage, "waited " + timeout + ", " + state()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      rejected.increment();
      task.refused(new FlowBusyException(flow, stage, "interrupted while waiting, " + state()));
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
      if (dropped instanceof StageTask task) {
        rejected.increment();
        task.refused(new FlowBusyException(flow, stage, "the flow stopped before it ran"));
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
    return discarded.sum();
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
