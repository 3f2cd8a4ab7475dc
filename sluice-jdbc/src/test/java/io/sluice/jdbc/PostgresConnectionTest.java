package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.StoreException;
import io.sluice.testkit.PostgresTestDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What an unreachable or reached PostgreSQL looks like in messages: URL, user, never a password.
 */
class PostgresConnectionTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  private static final String PASSWORD = "s3cr3t-Pa55";

  private static StoreException openFailure(StorageConfig config) {
    return catchThrowableOfType(
        StoreException.class,
        () ->
            new PostgresStorageFactory()
                .open(config, TestStorages.values(), new SimpleMeterRegistry(), Clock.systemUTC()));
  }

  private static String everything(Throwable e) {
    StringWriter trace = new StringWriter();
    e.printStackTrace(new PrintWriter(trace));
    return trace.toString();
  }

  @Test
  void anUnreachableServerFailsTheOpenNamingTheUrlTheUserAndWhy() {
    StoreException e =
        openFailure(
            StorageConfig.builder()
                .url("jdbc:postgresql://127.0.0.1:1/test")
                .user("postgres")
                .password(PASSWORD)
                .connectTimeout(Duration.ofSeconds(1))
                .build());

    assertThat(e)
        .hasMessageStartingWith(
            "Could not connect to jdbc:postgresql://127.0.0.1:1/test as postgres within 1 s:")
        .hasMessageContaining("Connection refused");
    assertThat(everything(e)).doesNotContain(PASSWORD);
  }

  @Test
  void aPasswordInTheUrlIsMaskedInTheMessage() {
    StoreException e =
        openFailure(
            StorageConfig.builder()
                .url("jdbc:postgresql://127.0.0.1:1/test?password=" + PASSWORD)
                .user("postgres")
                .connectTimeout(Duration.ofMillis(500))
                .build());

    assertThat(e).hasMessageContaining("jdbc:postgresql://127.0.0.1:1/test?password=***");
    assertThat(everything(e)).doesNotContain(PASSWORD);
  }

  @Test
  void describeNamesTheUrlTheUserThePoolAndTheSchemaButNotThePassword() {
    StorageConfig config =
        StorageConfig.builder()
            .url(DB.url())
            .user("postgres")
            .password(PASSWORD)
            .poolSize(3)
            .build();
    try (JdbcStorage storage =
        (JdbcStorage)
            new PostgresStorageFactory()
                .open(
                    config, TestStorages.values(), new SimpleMeterRegistry(), Clock.systemUTC())) {
      assertThat(storage.describe())
          .isEqualTo("postgresql " + DB.url() + " as postgres (pool 3, schema v5)");
    }
  }

  @Test
  void aWriterFrozenInsideItsTransactionLosesItsLocksWithinTheIdleTimeout() throws Exception {
    StorageConfig config = StorageConfig.builder().url(DB.url()).user("postgres").build();
    CountDownLatch locked = new CountDownLatch(1);
    CountDownLatch thaw = new CountDownLatch(1);
    try (Storage storage =
            new PostgresStorageFactory()
                .open(config, TestStorages.values(), new SimpleMeterRegistry(), Clock.systemUTC());
        ExecutorService frozen = Executors.newSingleThreadExecutor();
        Connection other = DriverManager.getConnection(DB.url(), "postgres", null)) {
      try {
        JdbcAccess db = JdbcAccess.of(storage);
        frozen.submit(
            () ->
                db.write(
                    "hold a lock while frozen",
                    tx -> {
                      tx.prepare("LOCK TABLE sluice_object_store IN ACCESS EXCLUSIVE MODE")
                          .execute();
                      locked.countDown();
                      try {
                        thaw.await(); // the process is frozen here, inside its transaction
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      }
                      return null;
                    }));
        assertThat(locked.await(10, TimeUnit.SECONDS)).isTrue();
        other.createStatement().execute("SET lock_timeout = '200ms'");
        long started = System.nanoTime();

        assertThat(lockFrom(other)).as("locked by the frozen writer").isFalse();
        await().atMost(Duration.ofSeconds(10)).until(() -> lockFrom(other));
        assertThat(Duration.ofNanos(System.nanoTime() - started))
            .isGreaterThanOrEqualTo(
                PostgresStorageFactory.IDLE_IN_TRANSACTION.minus(Duration.ofMillis(500)));
      } finally {
        thaw.countDown(); // else closing the storage waits for the frozen writer
      }
    }
  }

  /** Whether {@code connection} could take the lock the frozen writer holds (then lets it go). */
  private static boolean lockFrom(Connection connection) throws SQLException {
    connection.setAutoCommit(false);
    try (Statement statement = connection.createStatement()) {
      statement.execute("LOCK TABLE sluice_object_store IN ACCESS EXCLUSIVE MODE");
      return true;
    } catch (SQLException e) {
      if (!"55P03".equals(e.getSQLState())) {
        throw e; // not a lock timeout
      }
      return false;
    } finally {
      connection.rollback();
      connection.setAutoCommit(true);
    }
  }
}
