package io.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.store.JobStore;
import io.sluice.core.store.NewJob;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.jdbc.SqliteStorageFactory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database that cannot be written (another connection holds SQLite's write lock) pauses
 * acquisition: the node cannot renew its lease, stops taking jobs, and resumes, with a new lease,
 * once the database can be written again.
 */
class SqliteOutageTest {

  @TempDir Path dir;

  @Test
  void aDatabaseOutagePausesAcquisitionAndTheNodeResumesWhenItReturns() throws Exception {
    StorageConfig config =
        StorageConfig.builder().dataDir(dir).connectTimeout(Duration.ofMillis(300)).build();
    Clock clock = Clock.systemUTC();
    List<Instant> ran = new CopyOnWriteArrayList<>();
    try (Storage storage =
            new SqliteStorageFactory()
                .open(config, JobTestStorages.VALUES, new SimpleMeterRegistry(), clock);
        Connection outage = JobTestStorages.sqliteConnection(dir)) {
      JobStore store = JobTestStorages.jobs(storage);
      try (JobExecutor executor =
          JobExecutor.builder(store)
              .handler("email", job -> ran.add(clock.instant()))
              .config(
                  JobExecutorConfig.builder()
                      .nodeId("node-a")
                      .leaseDuration(Duration.ofSeconds(1))
                      .heartbeatInterval(Duration.ofMillis(200))
                      .safetyPoll(Duration.ofMillis(200))
                      .build())
              .build()) {
        executor.start();
        long epoch = executor.lease().epoch();
        store.create(NewJob.of("email", "before the outage"));
        await().atMost(Duration.ofSeconds(10)).until(() -> ran.size() == 1);

        Statement lock = outage.createStatement();
        lock.execute("BEGIN IMMEDIATE");
        await().atMost(Duration.ofSeconds(10)).until(() -> !executor.holdsLease());
        lock.execute("ROLLBACK");
        Instant back = clock.instant();

        await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> executor.holdsLease() && executor.lease().epoch() > epoch);
        store.create(NewJob.of("email", "after the outage"));
        await().atMost(Duration.ofSeconds(10)).until(() -> ran.size() == 2);
        assertThat(ran.get(1)).isAfter(back);
      }
    }
  }
}
