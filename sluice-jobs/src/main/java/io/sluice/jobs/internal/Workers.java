package io.sluice.jobs.internal;

import io.sluice.core.logging.LogContext;
import io.sluice.jobs.JobContext;
import io.sluice.jobs.JobExecutorConfig;
import io.sluice.jobs.JobHandler;
import io.sluice.jobs.spi.ClaimedJob;
import io.sluice.jobs.spi.JobStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/** The run of one held job on its virtual thread: its permit, its handler, its outcome queued. */
final class Workers {

  private static final int MAX_ERROR_LENGTH = 4000;

  private final JobStore store;
  private final JobExecutorConfig config;
  private final Map<String, JobHandler> handlers;
  private final Clock clock;
  private final JobMetrics metrics;
  private final LeaseKeeper keeper;
  private final HeldJobs holding;
  private final Semaphore permits;
  private final AtomicInteger held;
  private final AtomicInteger running;
  private final OutcomeWriter outcomes;
  private final BooleanSupplier stopping;

  Workers(
      JobStore store,
      JobExecutorConfig config,
      Map<String, JobHandler> handlers,
      JobMetrics metrics,
      LeaseKeeper keeper,
      HeldJobs holding,
      AtomicInteger held,
      AtomicInteger running,
      OutcomeWriter outcomes,
      BooleanSupplier stopping) {
    this.store = store;
    this.config = config;
    this.handlers = handlers;
    this.clock = store.clock();
    this.metrics = metrics;
    this.keeper = keeper;
    this.holding = holding;
    this.permits = new Semaphore(config.concurrency());
    this.held = held;
    this.running = running;
    this.outcomes = outcomes;
    this.stopping = stopping;
  }

  /**
   * Runs one held job (unless dropped or stopping) and queues its outcome; true when that outcome
   * is the oldest waiting to be written.
   */
  boolean run(HeldJobs.Held one) {
    ClaimedJob job = one.job;
    one.enter();
    boolean permit = false;
    boolean first = false;
    try {
      if (one.dropped()) {
        first = outcomes.offer(new Outcome.Dropped(job));
        return first;
      }
      permits.acquire();
      permit = true;
      running.incrementAndGet();
      if (stopping.getAsBoolean()) {
        first = outcomes.offer(new Outcome.Released(job));
        return first;
      }
      Object payload;
      try {
        payload = job.payload().read();
      } catch (RuntimeException e) {
        metrics.unreadable.increment();
        first =
            outcomes.offer(
                new Outcome.Unreadable(job, "The payload cannot be read: " + describe(e)));
        return first;
      }
      JobContext context =
          new JobContext(
              job.id(),
              job.type(),
              payload,
              job.attempt(),
              job.retriesLeft(),
              job.dueAt(),
              job.exclusiveKey(),
              config.nodeId(),
              transaction -> store.complete(transaction, job.lease(), job.id()),
              () -> keeper.holds(job.lease()));
      // A job starts only under the lease held now: a node that was paused past its lease, or
      // registered again since the claim, must not run what another node may run already. Looked
      // at last, right before the handler: a node frozen between the look and the start would
      // start the job when it wakes (reading the payload first left that window wide open).
      if (!keeper.holds(job.lease())) {
        holding.drop(job.lease(), "it lapsed before the job could start");
      }
      if (!holding.start(one)) {
        Thread.interrupted(); // the wake-up of the drop, if it came
        first = outcomes.offer(new Outcome.Dropped(job));
        return first;
      }
      Duration late = Duration.between(job.dueAt(), clock.instant());
      metrics.startLatency.record(late.isNegative() ? Duration.ZERO : late);
      metrics.waited(job.type(), late.isNegative() ? Duration.ZERO : late);
      LogContext.Work before = LogContext.job(job.id());
      long started = System.nanoTime();
      boolean returned = false;
      try {
        handlers.get(job.type()).handle(context);
        returned = true;
      } finally {
        LogContext.leave(before);
        metrics.ran(job.type(), returned, System.nanoTime() - started);
      }
      metrics.executed.increment();
      first = outcomes.offer(new Outcome.Completed(job, context.completedInTransaction()));
    } catch (InterruptedException e) {
      first = outcomes.offer(one.dropped() ? new Outcome.Dropped(job) : new Outcome.Released(job));
    } catch (Exception | LinkageError | AssertionError | StackOverflowError e) {
      metrics.failed.increment();
      first = outcomes.offer(new Outcome.Failed(job, describe(e)));
    } finally {
      holding.remove(one);
      if (permit) {
        running.decrementAndGet();
        permits.release();
      }
      held.decrementAndGet();
    }
    return first;
  }

  private static String describe(Throwable e) {
    String text = e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    return text.length() <= MAX_ERROR_LENGTH ? text : text.substring(0, MAX_ERROR_LENGTH);
  }
}
