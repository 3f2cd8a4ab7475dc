package io.sluice.bench.db;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.batch.Aggregator;
import io.sluice.batch.BatchEngine;
import io.sluice.batch.BatchJob;
import io.sluice.batch.BatchResult;
import io.sluice.batch.BatchStep;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.StorageConfig.Sync;
import io.sluice.core.store.Storages;
import io.sluice.db.DataSourceConfig;
import io.sluice.db.DataSources;
import io.sluice.db.DbBulkProcessor;
import io.sluice.db.DbStatement;
import io.sluice.db.QueryInput;
import io.sluice.db.QueryInputConfig;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The Sluice side of {@link TableCopyBenchmark}, built with the Java API as the other batch
 * benchmarks are (E1, E1 CSV): a batch job whose input is a {@code query} on the source ({@code
 * fetchSize} rows per round trip, keyed by {@code id}), one CPU_LITE step transforming each record
 * (a map of the row's columns), and an aggregator of {@code group} records whose sink is a {@code
 * db-bulk} insert into the target ({@code batchSize} the group: one JDBC batch per group). Blocks
 * of {@code blockSize} records (100 by default), {@code auto}, nothing else tuned. The store is the
 * embedded SQLite default (a fresh data directory per run) or, with {@code postgresql}, the
 * PostgreSQL store in a schema of its own on the same server; {@code sqlite-normal} is the embedded
 * store with {@code synchronous=NORMAL} (commits not forced to the disk), to tell what the forcing
 * costs. The data source is a pool of the default size (10).
 */
final class SluiceCopy {

  private static final StoredValues VALUES = StoredValues.create(SerializationConfig.defaults());
  private static final String STORE_SCHEMA = "bench_copy_store";

  /** How long a copy may take before the benchmark gives up on it rather than wait for ever. */
  private static final Duration LIMIT = Duration.ofMinutes(10);

  private SluiceCopy() {}

  /**
   * Copies the source to the target on {@code store} ({@code sqlite}, {@code sqlite-normal} or
   * {@code postgresql}); returns the records the job completed.
   */
  static long copy(String store, Path dataDir, int fetchSize, int blockSize, int group)
      throws Exception {
    DataSources sources =
        new DataSources(
            List.of(
                DataSourceConfig.builder("bench", CopyTables.URL).user(CopyTables.USER).build()));
    sources.acquire("bench", null); // the pool is open before the clock starts, as Spring's is
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    StorageConfig storageConfig;
    if (store.equals("postgresql")) {
      emptyStoreSchema();
      storageConfig =
          StorageConfig.builder()
              .url("jdbc:postgresql://127.0.0.1:5432/test?currentSchema=" + STORE_SCHEMA)
              .user(CopyTables.USER)
              .build();
    } else {
      storageConfig =
          StorageConfig.builder()
              .dataDir(dataDir)
              .sync(store.equals("sqlite-normal") ? Sync.NORMAL : Sync.FULL)
              .build();
    }
    try (Storage storage =
            Storages.open(
                storageConfig,
                VALUES,
                registry,
                Clock.systemUTC(),
                SluiceCopy.class.getClassLoader());
        Application application =
            Application.builder()
                .storage(storage)
                .storedValues(VALUES)
                .meterRegistry(registry)
                .build()) {
      BatchJob job =
          BatchJob.builder("copy-orders")
              .blockSize(blockSize)
              .input(
                  new QueryInput(
                      sources,
                      QueryInputConfig.builder("bench", CopyTables.SELECT)
                          .keyColumn("id")
                          .fetchSize(fetchSize)
                          .build()))
              .step(
                  BatchStep.builder("transform")
                      .processor(Processor.of(ProcessingType.CPU_LITE, SluiceCopy::transform))
                      .aggregator(
                          Aggregator.size(
                              group,
                              new DbBulkProcessor(
                                  sources,
                                  DbStatement.of(
                                      "bench",
                                      CopyTables.INSERT
                                          + "(:id, :customer, :country, :amount, :created, :note,"
                                          + " :total)",
                                      null,
                                      null),
                                  null,
                                  group)))
                      .build())
              .build();
      BatchResult result;
      try {
        result =
            BatchEngine.of(application)
                .start(job)
                .result()
                .get(LIMIT.toMinutes(), TimeUnit.MINUTES);
      } catch (TimeoutException e) {
        throw new IllegalStateException(
            "the Sluice job did not end within " + LIMIT + " (" + store + " store): stopped", e);
      }
      if (!result.completed() || result.failed() != 0) {
        throw new IllegalStateException("the Sluice job did not complete cleanly: " + result);
      }
      return result.successful();
    } finally {
      sources.release("bench");
    }
  }

  /** The transformation, on the row's map. */
  private static Message transform(Message message) {
    @SuppressWarnings("unchecked")
    Map<String, Object> row = (Map<String, Object>) message.payload();
    Map<String, Object> copied = LinkedHashMap.newLinkedHashMap(row.size() + 1);
    copied.putAll(row);
    copied.put("country", CopyTables.upperCased((String) row.get("country")));
    copied.put("total", CopyTables.total((BigDecimal) row.get("amount")));
    return message.withPayload(copied);
  }

  private static void emptyStoreSchema() throws SQLException {
    try (Connection c =
            DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:5432/test", CopyTables.USER, null);
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS " + STORE_SCHEMA + " CASCADE");
      s.execute("CREATE SCHEMA " + STORE_SCHEMA);
    }
  }
}
