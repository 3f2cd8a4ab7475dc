package io.sluice.cli;

import io.sluice.batch.AcceptPolicy;
import io.sluice.batch.Aggregator;
import io.sluice.batch.BatchEngine;
import io.sluice.batch.BatchInput;
import io.sluice.batch.BatchJob;
import io.sluice.batch.BatchStep;
import io.sluice.core.Application;
import io.sluice.core.store.StorageConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The batch part of {@code sluice demo}: a job over generated order lines on the embedded store in
 * the work directory (SQLite, sync FULL: a block moves on only once its commit is on the disk), run
 * and shown as {@code sluice batch run} runs and shows one; then what its sink received.
 */
final class BatchDemo {

  /** Every this many lines, one lacks its last two fields. */
  static final long SHORT_LINE_EVERY = 100_000;

  /** Every this many lines (but the short ones), one has no price. */
  static final long NO_PRICE_EVERY = 50_000;

  private static final String[] CURRENCIES = {"EUR", "USD", "GBP"};

  private BatchDemo() {}

  /**
   * The job: {@code records} generated order lines; {@code orders} parses and checks each one (a
   * bad line fails its record, not the job), prices it in euro cents and hands each block's amounts
   * to a sink that adds them up; {@code report} takes only the failed records.
   */
  static BatchJob job(long records) {
    return BatchJob.builder("demo-orders")
        .input(BatchInput.generator(records, BatchDemo::line))
        .blockSize(1000)
        .maxFailedRecords(1000)
        .step(
            BatchStep.builder("orders")
                .processor(new DemoOrderCheck())
                .processor(new DemoOrderPricing())
                .aggregator(Aggregator.streaming(new DemoOrderTotals()))
                .build())
        .step(BatchStep.builder("report").accept(AcceptPolicy.ONLY_FAILURES).build())
        .build();
  }

  /**
   * Order line {@code index + 1}: {@code id,customer,quantity,unitPrice,currency}; every {@link
   * #SHORT_LINE_EVERY}th lacks its last two fields, every {@link #NO_PRICE_EVERY}th has no price.
   */
  static String line(long index) {
    long id = index + 1;
    StringBuilder line = new StringBuilder(48);
    line.append(id).append(",customer-").append(id % 5000).append(',').append(1 + id % 20);
    if (id % SHORT_LINE_EVERY == 0) {
      return line.toString();
    }
    line.append(',');
    if (id % NO_PRICE_EVERY == 0) {
      line.append("n/a");
    } else {
      line.append(1 + id % 999).append('.').append(10 + id % 90);
    }
    return line.append(',').append(CURRENCIES[(int) (id % CURRENCIES.length)]).toString();
  }

  /**
   * Runs the demo over {@code records} orders, its store in {@code work}; returns the exit code.
   */
  static int run(
      Path work, long records, int timeoutSeconds, ProgressDisplay.Style style, PrintWriter out) {
    BatchJob job = job(records);
    out.printf(
        Locale.ROOT,
        "Sluice demo: a batch job over %,d generated order lines, in blocks of %,d on the"
            + " embedded store%n",
        records,
        job.blockSize());
    out.println("  input   id,customer,quantity,unitPrice,currency; a few malformed on purpose");
    out.println("  orders  parse and check each line, price it in euro cents; a sink adds them up");
    out.println("  report  the failed records");
    out.flush();
    DemoOrderTotals.reset();
    BatchConsole console = new BatchConsole(out, style);
    Application file =
        Application.builder()
            .storage(StorageConfig.builder().dataDir(work.resolve("data")).build())
            .build();
    int exit =
        ConfiguredStorage.use(
            file,
            BatchDemo.class.getClassLoader(),
            application -> {
              BatchEngine.Execution execution = BatchEngine.of(application).start(job);
              CompletableFuture.delayedExecutor(timeoutSeconds, TimeUnit.SECONDS)
                  .execute(execution::stop);
              return BatchRunCommand.watch(
                  console, job, execution, null, application.storage().describe());
            });
    out.printf(
        Locale.ROOT,
        "The sink received %,d orders in %,d groups, worth EUR %,.2f%n",
        DemoOrderTotals.ORDERS.get(),
        DemoOrderTotals.GROUPS.get(),
        DemoOrderTotals.CENTS.get() / 100.0);
    if (exit == ExitCodes.STOPPED) {
      out.printf("Gave up after --timeout-seconds %d%n", timeoutSeconds);
      exit = ExitCodes.FAILED;
    }
    out.flush();
    return exit;
  }
}
