package io.sluice.cli;

import io.sluice.batch.BatchEngine;
import io.sluice.batch.BatchInstance;
import io.sluice.batch.BatchJob;
import io.sluice.batch.BatchRecord;
import io.sluice.batch.BatchResult;
import io.sluice.batch.BatchState;
import io.sluice.core.SluiceException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What {@code sluice batch run} and {@code resume} (and the demo) show of a batch instance: a line
 * as it begins, its progress while it runs, and its result when it ends, with the exit code that
 * says how it ended.
 */
final class BatchConsole {

  private final PrintWriter out;
  private final ProgressDisplay.Style style;

  BatchConsole(PrintWriter out, ProgressDisplay.Style style) {
    this.out = out;
    this.style = style;
  }

  /** Says which instance runs: a new one, or one resumed where {@code before} left it. */
  void begins(BatchJob job, long instance, BatchInstance before, String store) {
    begins(job, instance, before, store, false);
  }

  /**
   * As {@link #begins(BatchJob, long, BatchInstance, String)}; on a {@code shared} store, an
   * instance loading or running is joined (or taken up, when no node runs it any more).
   */
  void begins(BatchJob job, long instance, BatchInstance before, String store, boolean shared) {
    boolean live =
        before != null
            && (before.state() == BatchState.LOADING || before.state() == BatchState.RUNNING);
    if (shared && live) {
      out.printf(
          Locale.ROOT,
          "Batch job %s: this node joins instance %d, %s on the shared store (or takes it up if no"
              + " node runs it any more): %,d loaded, %,d processed, %,d failed so far (store %s)%n",
          job.name(),
          instance,
          before.state(),
          before.loaded(),
          before.processed(),
          before.failed(),
          store);
    } else if (before == null) {
      out.printf(
          "Batch job %s: instance %d starts (input %s; store %s)%n",
          job.name(), instance, job.input().describe(), store);
    } else {
      out.printf(
          Locale.ROOT,
          "Batch job %s: instance %d resumes where it %s: %,d loaded, %,d processed, %,d failed"
              + " (store %s)%n",
          job.name(),
          instance,
          before.state() == BatchState.STOPPED ? "stopped" : "was left",
          before.loaded(),
          before.processed(),
          before.failed(),
          store);
    }
    out.flush();
  }

  /**
   * Waits for {@code execution} to end, showing its progress; prints its result and returns the
   * exit code: 0 completed, 1 failed, 3 stopped.
   */
  int watch(BatchJob job, BatchEngine.Execution execution) throws InterruptedException {
    ProgressDisplay display = new ProgressDisplay(out, style);
    BatchResult result = null;
    while (result == null) {
      try {
        result = execution.result().get(display.every().toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        display.show(execution.progress());
      } catch (ExecutionException e) {
        display.finish(execution.progress());
        throw e.getCause() instanceof RuntimeException cause
            ? cause
            : new SluiceException(
                "Batch job " + job.name() + " ended with an error: " + e.getCause(), e.getCause());
      }
    }
    display.finish(execution.progress());
    print(job, result);
    return switch (result.state()) {
      case COMPLETED -> ExitCodes.OK;
      case STOPPED -> ExitCodes.STOPPED;
      default -> ExitCodes.FAILED;
    };
  }

  /** The result: totals, each step's counts, samples of failed records, and why it stopped. */
  void print(BatchJob job, BatchResult result) {
    double seconds = result.elapsed().toNanos() / 1e9;
    out.printf("Batch job %s, instance %d: %s%n", job.name(), result.instance(), result.state());
    out.printf(
        Locale.ROOT,
        "  %,d loaded, %,d processed, %,d successful, %,d failed; this run: %,d records in %.2f s"
            + " (%,.0f records/s)%n",
        result.loaded(),
        result.processed(),
        result.successful(),
        result.failed(),
        result.processedThisRun(),
        seconds,
        result.recordsPerSecond());
    Table steps = new Table("STEP", "PROCESSED", "FAILED", "SKIPPED");
    result.steps().forEach((name, c) -> steps.row(name, c.processed(), c.failed(), c.skipped()));
    steps.print(out, "  ");
    if (!result.failures().isEmpty()) {
      out.printf(
          "  failed records (%s):%n",
          result.failures().size() == result.failed()
              ? "all " + result.failed()
              : "the first " + result.failures().size() + " this run saw of " + result.failed());
      String unit = job.input().positionName();
      for (BatchRecord record : result.failures()) {
        out.printf(
            "    %s %d, at %s: %s%n",
            unit, record.position(), record.failedAt(), JobText.firstLine(record.error()));
      }
    }
    if (result.message() != null) {
      out.printf("  %s%n", result.message());
    }
    out.flush();
  }
}
