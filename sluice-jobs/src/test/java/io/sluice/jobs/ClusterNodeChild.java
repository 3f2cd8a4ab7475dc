package io.sluice.jobs;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.store.JobStore;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.jdbc.PostgresStorageFactory;
import io.sluice.testkit.PostgresTestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;

/**
 * One executor node in a process of its own, for {@link FiveNodeProcessesShareTheJobsSafelyTest}:
 * it runs the jobs of type {@code work} on the PostgreSQL schema given, and records every run in
 * {@code cluster_runs} (job id, node) before returning, so the test sees each execution, not only
 * each completion. It stops when its standard input closes.
 *
 * <p>Arguments: the JDBC URL (with its schema), the node id, and how long each job takes in
 * milliseconds (0 when left out).
 */
public final class ClusterNodeChild {

  private ClusterNodeChild() {}

  /** Starts the node, says "ready" and runs until standard input closes. */
  public static void main(String[] args) throws Exception {
    String url = args[0];
    String node = args[1];
    long workMillis = args.length > 2 ? Long.parseLong(args[2]) : 0;
    StorageConfig config =
        StorageConfig.builder()
            .url(url)
            .user(PostgresTestDatabase.USER)
            .poolSize(4)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    try (Storage storage =
            new PostgresStorageFactory()
                .open(
                    config, JobTestStorages.VALUES, new SimpleMeterRegistry(), Clock.systemUTC());
        Connection records = DriverManager.getConnection(url, PostgresTestDatabase.USER, null);
        PreparedStatement record =
            records.prepareStatement("INSERT INTO cluster_runs (job_id, node) VALUES (?, ?)")) {
      JobStore jobs = JobTestStorages.jobs(storage);
      JobExecutor executor =
          JobExecutor.builder(jobs)
              .config(JobExecutorConfig.builder().nodeId(node).build())
              .handler(
                  "work",
                  job -> {
                    if (workMillis > 0) {
                      Thread.sleep(workMillis); // the job's work
                    }
                    synchronized (record) {
                      record.setLong(1, job.id());
                      record.setString(2, node);
                      record.executeUpdate();
                    }
                  })
              .build();
      executor.start();
      System.out.println("ready " + node);
      System.out.flush();
      while (System.in.read() >= 0) {
        // runs until the test closes standard input (or kills the process)
      }
      executor.close();
    }
  }
}
