package io.sluice.jobs;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.jdbc.PostgresStorageFactory;
import io.sluice.jobs.spi.JobStore;
import io.sluice.testkit.PostgresTestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One executor node in a process of its own, for {@link FiveNodeProcessesShareTheJobsSafelyTest}
 * and {@link AFrozenNodeStartsNoJobItLostTest}: it runs the jobs of type {@code work} on the
 * PostgreSQL schema given, and records every run in {@code cluster_runs} (job id, node) before
 * returning, so the test sees each execution's side effect, not only each completion. It stops when
 * its standard input closes.
 *
 * <p>A {@code guarded} handler behaves as one with a side effect it cannot undo: it records its
 * start in {@code cluster_starts}, works, then asks {@link JobContext#holdsJob()} and makes its
 * side effect only when told it still holds the job (else records the run in {@code cluster_lost}).
 * Its node prints {@code held <node> <n>} whenever the number of jobs it holds changes.
 *
 * <p>A {@code keyed} handler records each run in {@code cluster_keyed_runs} (job id, exclusive key,
 * its payload as a sequence number, node): the start when it begins, the end before it returns,
 * both on the database's clock, so that the test sees whether two runs of a key overlapped.
 *
 * <p>Arguments: the JDBC URL (with its schema), the node id, how long each job takes in
 * milliseconds (0 when left out), and {@code guarded} or {@code keyed} for those handlers.
 */
public final class ClusterNodeChild {

  private ClusterNodeChild() {}

  /** Starts the node, says "ready" and runs until standard input closes. */
  public static void main(String[] args) throws Exception {
    String url = args[0];
    String node = args[1];
    long workMillis = args.length > 2 ? Long.parseLong(args[2]) : 0;
    boolean guarded = args.length > 3 && args[3].equals("guarded");
    boolean keyed = args.length > 3 && args[3].equals("keyed");
    MeterRegistry meters = new SimpleMeterRegistry();
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
        PreparedStatement effect =
            records.prepareStatement("INSERT INTO cluster_runs (job_id, node) VALUES (?, ?)");
        PreparedStatement start =
            records.prepareStatement(
                "INSERT INTO cluster_starts (job_id, node, at) VALUES (?, ?, to_timestamp(? / 1000.0))");
        PreparedStatement lost =
            records.prepareStatement("INSERT INTO cluster_lost (job_id, node) VALUES (?, ?)");
        Connection keyRecords = DriverManager.getConnection(url, PostgresTestDatabase.USER, null)) {
      JobStore jobs = JobTestStorages.jobs(storage);
      JobExecutor executor =
          JobExecutor.builder(jobs)
              .config(JobExecutorConfig.builder().nodeId(node).build())
              .meterRegistry(meters)
              .handler(
                  "work",
                  job -> {
                    if (keyed) {
                      keyedRun(keyRecords, job, node, workMillis);
                      return;
                    }
                    if (guarded) {
                      // When the handler began, not when its turn on the connection came.
                      record(start, job.id(), node, System.currentTimeMillis());
                    }
                    if (workMillis > 0) {
                      Thread.sleep(workMillis); // the job's work
                    }
                    record(!guarded || job.holdsJob() ? effect : lost, job.id(), node, null);
                  })
              .build();
      executor.start();
      if (guarded) {
        reportHeld(meters, node);
      }
      System.out.println("ready " + node);
      System.out.flush();
      while (System.in.read() >= 0) {
        // runs until the test closes standard input (or kills the process)
      }
      executor.close();
    }
  }

  /** Records the start and the end of a run of {@code job}, which takes {@code workMillis}. */
  private static void keyedRun(Connection records, JobContext job, String node, long workMillis)
      throws Exception {
    long run;
    synchronized (records) {
      try (PreparedStatement start =
          records.prepareStatement(
              "INSERT INTO cluster_keyed_runs (job_id, exclusive_key, seq, node)"
                  + " VALUES (?, ?, ?, ?) RETURNING run")) {
        start.setLong(1, job.id());
        start.setString(2, job.exclusiveKey());
        start.setInt(3, (Integer) job.payload());
        start.setString(4, node);
        try (ResultSet rs = start.executeQuery()) {
          rs.next();
          run = rs.getLong(1);
        }
      }
    }
    if (workMillis > 0) {
      Thread.sleep(workMillis); // the job's work
    }
    synchronized (records) {
      try (PreparedStatement end =
          records.prepareStatement(
              "UPDATE cluster_keyed_runs SET ended = clock_timestamp() WHERE run = ?")) {
        end.setLong(1, run);
        end.executeUpdate();
      }
    }
  }

  /** Inserts the row of {@code job} run on {@code node}, at {@code millis} when given. */
  private static void record(PreparedStatement insert, long job, String node, Long millis)
      throws SQLException {
    synchronized (ClusterNodeChild.class) { // one connection for the three statements
      insert.setLong(1, job);
      insert.setString(2, node);
      if (millis != null) {
        insert.setLong(3, millis);
      }
      insert.executeUpdate();
    }
  }

  /** Prints {@code held <node> <n>} whenever the number of jobs the node holds changes. */
  private static void reportHeld(MeterRegistry meters, String node) {
    Gauge held = meters.get("sluice.jobs.held").gauge();
    AtomicLong last = new AtomicLong(-1);
    Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon(true).factory())
        .scheduleWithFixedDelay(
            () -> {
              long now = (long) held.value();
              if (last.getAndSet(now) != now) {
                System.out.println("held " + node + " " + now);
                System.out.flush();
              }
            },
            0,
            20,
            TimeUnit.MILLISECONDS);
  }
}
