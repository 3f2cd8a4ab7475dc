package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.vm.VmListenerSource;
import io.sluice.core.vm.VmPersistence;
import io.sluice.core.vm.VmPublishProcessor;
import io.sluice.testkit.PostgresTestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PostgreSQL goes away while a flow publishes to and consumes from a persistent VM queue: every
 * connection is cut (as a restart or a failover cuts them), or, in CI, the server itself restarts.
 * Consumers pause and reconnect, publishes made meanwhile fail with an error (none is silently
 * lost), and every publish that returned is delivered.
 */
@Tag("crash")
class PostgresOutageTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  private static final String APPLICATION_NAME = "sluice-outage-test";

  private final Set<String> published = ConcurrentHashMap.newKeySet();
  private final Set<String> delivered = ConcurrentHashMap.newKeySet();
  private final AtomicInteger failedPublishes = new AtomicInteger();

  @Test
  void cutConnectionsPauseTheFlowAndLoseNothingAcknowledged() throws Exception {
    runThrough(this::cutEveryConnection);
  }

  @Test
  void aServerRestartPausesTheFlowAndLosesNothingAcknowledged() throws Exception {
    Assumptions.assumeTrue(
        "true".equalsIgnoreCase(System.getenv("CI"))
            || "true".equalsIgnoreCase(System.getenv("SLUICE_TEST_PG_RESTART")),
        "restarts the shared PostgreSQL server: runs in CI (CI=true) or with"
            + " SLUICE_TEST_PG_RESTART=true");
    runThrough(PostgresOutageTest::restartServer);
  }

  private void runThrough(Outage outage) throws Exception {
    StorageConfig config =
        StorageConfig.builder()
            .url(DB.url() + "&ApplicationName=" + APPLICATION_NAME)
            .user(PostgresTestDatabase.USER)
            .poolSize(4)
            .connectTimeout(Duration.ofSeconds(3))
            .build();
    Processor record =
        Processor.of(
            ProcessingType.CPU_LITE,
            message -> {
              delivered.add((String) message.payload());
              return message;
            });
    VmPersistence persistence =
        new VmPersistence(
            QueueOptions.DEFAULTS.withLockTimeout(Duration.ofSeconds(5)), Duration.ZERO, 64);
    try (Application app =
        Application.builder()
            .storage(config)
            .flow(
                Flow.builder("producer")
                    .processor(new VmPublishProcessor("work", false, Duration.ofSeconds(10), true))
                    .build())
            .flow(
                Flow.builder("worker")
                    .source(new VmListenerSource("work", 2, persistence))
                    .processor(record)
                    .build())
            .build()) {
      app.start();
      Thread producer = Thread.ofVirtual().start(() -> publish(app, 0, 300));
      await().until(() -> published.size() >= 100);
      outage.happen();
      producer.join();
      // After the outage, the flow goes on: new publishes are delivered too.
      publishUntilOneSucceeds(app);
      publish(app, 1000, 1100);
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(() -> assertThat(delivered).containsAll(published));
    }
    assertThat(published).hasSizeGreaterThan(150);
    System.out.printf(
        "PostgreSQL outage: %d publishes returned, all delivered; %d failed with an error%n",
        published.size(), failedPublishes.get());
  }

  private void publish(Application app, int from, int to) {
    for (int i = from; i < to; i++) {
      String id = "m" + i;
      try {
        app.send("producer", Message.of(id)).get(30, TimeUnit.SECONDS);
        published.add(id);
      } catch (Exception e) {
        failedPublishes.incrementAndGet(); // the publisher was told: not accepted
      }
    }
  }

  private void publishUntilOneSucceeds(Application app) {
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> {
              int before = published.size();
              publish(app, 900 + before % 100, 901 + before % 100);
              return published.size() > before;
            });
  }

  @FunctionalInterface
  private interface Outage {
    void happen() throws Exception;
  }

  /** Terminates every backend this test's storage opened, as a restart or failover would. */
  private void cutEveryConnection() throws Exception {
    try (Connection admin =
            DriverManager.getConnection(
                PostgresTestDatabase.BASE_URL, PostgresTestDatabase.USER, null);
        Statement statement = admin.createStatement();
        ResultSet cut =
            statement.executeQuery(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    + " WHERE application_name = '"
                    + APPLICATION_NAME
                    + "'")) {
      cut.next();
      assertThat(cut.getInt(1)).as("connections cut").isPositive();
    }
  }

  /** Restarts the local PostgreSQL cluster (Debian's pg_ctlcluster). */
  private static void restartServer() throws IOException, InterruptedException {
    List<Path> versions;
    try (var list = Files.list(Path.of("/etc/postgresql"))) {
      versions = list.toList();
    }
    Assumptions.assumeTrue(versions.size() == 1, "one PostgreSQL cluster under /etc/postgresql");
    Process restart =
        new ProcessBuilder(
                "pg_ctlcluster",
                "--skip-systemctl-redirect",
                versions.getFirst().getFileName().toString(),
                "main",
                "restart")
            .inheritIO()
            .start();
    assertThat(restart.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(restart.exitValue()).as("pg_ctlcluster restart").isZero();
  }
}
