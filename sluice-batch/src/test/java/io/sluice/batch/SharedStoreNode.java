package io.sluice.batch;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.app.Application;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.jdbc.PostgresStorageFactory;
import io.sluice.jobs.JobStores;
import io.sluice.jobs.LeaseHolder;
import io.sluice.testkit.PostgresTestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One node of a shared PostgreSQL store in a test: a storage (a pool), an application and a node
 * lease of its own (6 s, renewed every 500 ms), as a process would have, and a batch engine on
 * them.
 */
record SharedStoreNode(
    String name, BatchEngine engine, LeaseHolder lease, Storage storage, Application application) {

  /** Opens node {@code name} on the store {@code config}; what it opens goes to {@code open}. */
  static SharedStoreNode open(String name, StorageConfig config, List<AutoCloseable> open) {
    Storage storage =
        new PostgresStorageFactory()
            .open(config, EmbeddedBatch.VALUES, new SimpleMeterRegistry(), Clock.systemUTC());
    open.add(storage);
    Application application =
        Application.builder().storage(storage).storedValues(EmbeddedBatch.VALUES).build();
    open.add(application);
    LeaseHolder lease =
        LeaseHolder.start(
            JobStores.open(storage, EmbeddedBatch.VALUES),
            name,
            Duration.ofSeconds(6),
            Duration.ofMillis(500));
    open.add(lease);
    return new SharedStoreNode(
        name, BatchEngine.of(application, lease), lease, storage, application);
  }

  /** The records each node took through the last step of {@code instance}, by node. */
  static Map<String, Long> processedByNode(PostgresTestDatabase db, long instance)
      throws Exception {
    Map<String, Long> nodes = new HashMap<>();
    try (Connection c = db.connect();
        ResultSet rs =
            c.createStatement()
                .executeQuery(
                    "SELECT node, processed FROM sluice_batch_node WHERE instance_id = "
                        + instance)) {
      while (rs.next()) {
        nodes.put(rs.getString(1), rs.getLong(2));
      }
    }
    return nodes;
  }
}
