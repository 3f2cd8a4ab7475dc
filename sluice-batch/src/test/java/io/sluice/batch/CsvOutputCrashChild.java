package io.sluice.batch;

import java.nio.file.Path;

/**
 * The batch process {@link ACsvOutputSurvivesSigkillTest} kills: runs (or resumes) the order job
 * from {@code args[1]} to the CSV file {@code args[2]} on the store under {@code args[0]}, then
 * prints {@code RESULT state processed successful}.
 */
public final class CsvOutputCrashChild {

  private CsvOutputCrashChild() {}

  static BatchJob job(Path in, Path out) {
    return BatchJob.builder("orders")
        .input(BatchInput.csv(in))
        .output(BatchOutput.csv(out, OrdersCsv.COLUMNS))
        .maxFailedRecords(BatchJob.UNLIMITED)
        .step(BatchStep.builder("transform").processor(OrdersCsv.transform()).build())
        .build();
  }

  /** Runs the job and prints its result line. */
  public static void main(String[] args) {
    try (EmbeddedBatch batch = new EmbeddedBatch(Path.of(args[0]))) {
      BatchResult result =
          batch.engine.run(job(Path.of(args[1]), Path.of(args[2]))).result().join();
      System.out.println(
          "RESULT " + result.state() + " " + result.processed() + " " + result.successful());
    }
  }
}
