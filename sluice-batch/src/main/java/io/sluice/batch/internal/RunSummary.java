package io.sluice.batch.internal;

import io.sluice.batch.BatchResult;
import io.sluice.batch.BatchState;
import io.sluice.batch.StepCounts;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The end of a run: its state decided, its result made, stored and logged. */
final class RunSummary {

  private static final Logger LOG = LoggerFactory.getLogger(BatchRun.class);

  private final BatchRun run;
  private boolean ended;

  RunSummary(BatchRun run) {
    this.run = run;
  }

  /**
   * Whether {@link #finish} ended the instance: always on one process's store; on a shared store,
   * only for the one node of those that saw it through that wrote its end (it runs the job's
   * on-complete processors).
   */
  boolean ended() {
    return ended;
  }

  /** Stores the instance's final state and summary, logs them and returns the result. */
  BatchResult finish(Duration elapsed) {
    if (!run.holdsLease()) {
      throw new io.sluice.core.SluiceException(
          "Batch job "
              + run.job.name()
              + " instance "
              + run.instance
              + ": node "
              + run.lease
              + " lost its lease (the process was paused, or the database unreachable, for longer"
              + " than "
              + run.leases.duration()
              + "); it committed nothing after that, and the other nodes take its blocks over."
              + " Run sluice batch run again to join the instance anew");
    }
    InstanceTable.Instance at = run.store.find(run.instance).orElseThrow();
    boolean passed = run.limitPassed();
    BatchState state;
    String message;
    if (run.error.get() != null) {
      state = BatchState.FAILED;
      message = "the job failed: " + run.error.get();
    } else if (passed) {
      state = BatchState.FAILED;
      message =
          at.failed()
              + " record(s) failed, more than maxFailedRecords "
              + run.job.maxFailedRecords()
              + "; no block was dispatched after that";
    } else if (run.stopping) {
      state = BatchState.STOPPED;
      message = "stopped; resume it to go on where it stopped";
    } else if (at.inputDone() && run.store.pending(run.instance, -1, 1).isEmpty()) {
      state = BatchState.COMPLETED;
      message = null;
    } else {
      state = BatchState.STOPPED;
      message = "stopped before the end of its input";
    }
    Map<Integer, StepCounts> byIndex = run.store.steps(run.instance);
    Map<String, StepCounts> steps = new LinkedHashMap<>();
    for (int i = 0; i < run.job.steps().size(); i++) {
      steps.put(run.job.steps().get(i).name(), byIndex.getOrDefault(i, StepCounts.NONE));
    }
    long beyond = passed ? at.failed() - run.job.maxFailedRecords() : 0;
    BatchResult result =
        new BatchResult(
            run.instance,
            run.job.name(),
            state,
            at.loaded(),
            at.processed(),
            at.successful(),
            at.failed(),
            steps,
            List.copyOf(run.samples),
            elapsed,
            beyond,
            message,
            run.processedThisRun.get());
    if (run.leases == null) {
      run.store.state(run.instance, state, summary(result));
      ended = true;
    } else if (state == BatchState.STOPPED) {
      // Every node stops: the others see the state (or the stop asked) and stop too.
      run.store.end(run.instance, state, summary(result));
    } else {
      // Of the nodes that saw it through, the first to write its end runs the on-complete.
      ended = run.store.end(run.instance, state, summary(result));
    }
    LOG.info(
        "Batch job {} instance {} {}: {} loaded, {} processed, {} successful, {} failed in {} ms{}{}",
        run.job.name(),
        run.instance,
        state,
        result.loaded(),
        result.processed(),
        result.successful(),
        result.failed(),
        elapsed.toMillis(),
        message == null ? "" : " (" + message + ")",
        run.leases == null
            ? ""
            : " [node "
                + run.lease
                + ", "
                + run.processedThisRun.get()
                + " of them here"
                + (ended ? "; it wrote the end" : "")
                + "]");
    return result;
  }

  private static String summary(BatchResult result) {
    return result.state()
        + ": loaded "
        + result.loaded()
        + ", processed "
        + result.processed()
        + ", successful "
        + result.successful()
        + ", failed "
        + result.failed()
        + (result.message() == null ? "" : "; " + result.message());
  }
}
