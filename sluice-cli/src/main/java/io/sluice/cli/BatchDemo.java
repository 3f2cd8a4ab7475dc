package io.sluice.cli;

import io.sluice.batch.AcceptPolicy;
import io.sluice.batch.Aggregator;
import io.sluice.batch.BatchEngine;
import io.sluice.batch.BatchInput;
import io.sluice.batch.BatchJob;
import io.sluice.batch.BatchStep;
import io.sluice.core.app.Application;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
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

  private BatchDemo() {}

  /**
   * The job: {@code records} generated order lines; {@code orders} parses and checks each one (a
   * bad line fails its record, not the job), prices it in euro cents and hands each block's amounts
   * to a sink that adds them up; {@code report} takes only the failed records.
   */
  static BatchJob job(long records) {
    return BatchJob.builder("demo-orders")
        .input(BatchInput.generator(records, DemoOrders::line))
        .blockSize(1000)
        .maxFailedRecords(1000)
        .step(
            BatchStep.builder("orders")
                .processor(Processor.of(ProcessingType.CPU_LITE, DemoOrders::check))
                .processor(Processor.of(ProcessingType.CPU_LITE, DemoOrders::price))
                .aggregator(
                    Aggregator.streaming(Processor.of(ProcessingType.CPU_LITE, DemoOrders::add)))
                .build())
        .step(BatchStep.builder("report").accept(AcceptPolicy.ONLY_FAILURES).build())
        .build();
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
    DemoOrders.reset();
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
        DemoOrders.ORDERS.get(),
        DemoOrders.GROUPS.get(),
        DemoOrders.CENTS.get() / 100.0);
    if (exit == ExitCodes.STOPPED) {
      out.printf("Gave up after --timeout-seconds %d%n", timeoutSeconds);
      exit = ExitCodes.FAILED;
    }
    out.flush();
    return exit;
  }
}
