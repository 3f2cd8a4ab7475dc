package io.sluice.batch;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.app.Application;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.jdbc.SqliteStorageFactory;
import java.nio.file.Path;
import java.time.Clock;

/**
 * The batch process {@link BatchSurvivesSigkillTest} kills: runs (or resumes, as a rerun of the
 * same configuration does) the job {@link #job()} on the SQLite store in the directory given, then
 * prints its result as one line: {@code RESULT state loaded processed successful failed
 * step=processed/failed/skipped...}.
 */
public final class BatchCrashChild {

  /** Records in the job. */
  static final long RECORDS = 200_000;

  /** Failed records the instance keeps: fewer than the 20,000 that fail, so the bound is met. */
  static final int KEPT = 15_000;

  private BatchCrashChild() {}

  /**
   * 200,000 numbers: "double" fails those ending in 7 (a tenth), "report" takes only the failed
   * ones, "evens" takes the doubled numbers divisible by 4 and hands them to a sink in groups of
   * 40. The instance keeps {@link #KEPT} of its failed records.
   */
  static BatchJob job() {
    return BatchJob.builder("crash")
        .input(BatchInput.generator(RECORDS, i -> i))
        .maxFailedRecords(BatchJob.UNLIMITED)
        .keepFailedRecords(KEPT)
        .step(
            BatchStep.builder("double")
                .processor(
                    Processor.of(
                        ProcessingType.CPU_LITE,
                        m -> {
                          long n = (Long) m.payload();
                          if (n % 10 == 7) {
                            throw new IllegalArgumentException("no sevens: " + n);
                          }
                          return m.withPayload(n * 2);
                        }))
                .build())
        .step(
            BatchStep.builder("report")
                .accept(AcceptPolicy.ONLY_FAILURES)
                .processor(Processor.of(ProcessingType.CPU_LITE, m -> m))
                .build())
        .step(
            BatchStep.builder("evens")
                .acceptExpression("payload % 4 == 0")
                .processor(
                    Processor.of(
                        ProcessingType.CPU_LITE, m -> m.withPayload((Long) m.payload() + 1)))
                .aggregator(Aggregator.size(40, Processor.of(ProcessingType.CPU_LITE, m -> m)))
                .build())
        .build();
  }

  /** Runs the job in the store under {@code args[0]} and prints its result line. */
  public static void main(String[] args) {
    StoredValues values = StoredValues.create(SerializationConfig.defaults());
    try (Storage storage =
            new SqliteStorageFactory()
                .open(
                    StorageConfig.builder().dataDir(Path.of(args[0])).build(),
                    values,
                    new SimpleMeterRegistry(),
                    Clock.systemUTC());
        Application application =
            Application.builder().storage(storage).storedValues(values).build()) {
      BatchResult result = BatchEngine.of(application).run(job()).result().join();
      StringBuilder line =
          new StringBuilder("RESULT ")
              .append(result.state())
              .append(' ')
              .append(result.loaded())
              .append(' ')
              .append(result.processed())
              .append(' ')
              .append(result.successful())
              .append(' ')
              .append(result.failed());
      result
          .steps()
          .forEach(
              (step, c) ->
                  line.append(' ')
                      .append(step)
                      .append('=')
                      .append(c.processed())
                      .append('/')
                      .append(c.failed())
                      .append('/')
                      .append(c.skipped()));
      System.out.println(line);
    }
  }
}
