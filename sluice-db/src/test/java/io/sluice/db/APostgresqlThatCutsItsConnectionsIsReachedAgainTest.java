package io.sluice.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.testkit.PostgresTestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PostgreSQL ends every connection of the data source ({@code pg_terminate_backend}, as a restart
 * or a failover does) while a query runs: that call fails with {@code DB:CONNECTIVITY}, and the
 * calls after it succeed on new connections, with nothing to restart. Only this test's own backends
 * are ended (by their application name): the server is shared.
 */
class APostgresqlThatCutsItsConnectionsIsReachedAgainTest {

  @RegisterExtension static final PostgresTestDatabase POSTGRES = new PostgresTestDatabase();

  private final String application = "sluice-db-test-" + UUID.randomUUID();

  @Test
  void aCutQueryIsAConnectivityErrorAndTheNextCallsSucceed() throws Exception {
    DataSources sources =
        new DataSources(
            List.of(
                DataSourceConfig.builder("db", POSTGRES.url() + "&ApplicationName=" + application)
                    .user(PostgresTestDatabase.USER)
                    .maxSize(4)
                    .minIdle(4)
                    .connectionTimeout(Duration.ofSeconds(5))
                    .build()));
    Flow quick =
        Flow.builder("quick")
            .processor(
                DbSelectProcessor.of(
                    sources, DbStatement.of("db", "SELECT 1 AS one", Map.of(), null)))
            .build();
    Flow slow =
        Flow.builder("slow")
            .processor(
                DbSelectProcessor.of(
                    sources, DbStatement.of("db", "SELECT pg_sleep(30)", Map.of(), null)))
            .build();
    try (Application app = Application.builder().flow(quick).flow(slow).build()) {
      app.start();
      assertThat(call(app)).isEqualTo(List.of(Map.of("one", 1)));

      CompletableFuture<Message> cut = app.send("slow", Message.of(null));
      await().atMost(Duration.ofSeconds(10)).until(() -> sleeping() == 1);
      assertThat(terminate()).isGreaterThanOrEqualTo(1);

      ExecutionException failed =
          org.junit.jupiter.api.Assertions.assertThrows(
              ExecutionException.class, () -> cut.get(10, TimeUnit.SECONDS));
      assertThat(failed.getCause()).isInstanceOf(DbException.class);
      assertThat(((DbException) failed.getCause()).errorType()).isEqualTo("DB:CONNECTIVITY");
      assertThat(failed.getCause().getMessage()).contains("db-select on data source 'db' failed");

      // Every connection the pool held was ended too; a call may meet one before the pool has
      // seen it go, and that call fails the same way. Then the calls succeed again.
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () -> {
                try {
                  return call(app).equals(List.of(Map.of("one", 1)));
                } catch (ExecutionException e) {
                  assertThat(((DbException) e.getCause()).errorType()).isEqualTo("DB:CONNECTIVITY");
                  return false;
                }
              });
      for (int i = 0; i < 10; i++) {
        assertThat(call(app)).isEqualTo(List.of(Map.of("one", 1)));
      }
    }
  }

  private static Object call(Application app) throws Exception {
    return app.send("quick", Message.of(null)).get(10, TimeUnit.SECONDS).payload();
  }

  private int sleeping() throws SQLException {
    return count(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?"
            + " AND query LIKE 'SELECT pg_sleep%' AND state = 'active'");
  }

  private int terminate() throws SQLException {
    return count(
        "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            + " WHERE application_name = ?) t");
  }

  private int count(String sql) throws SQLException {
    try (Connection connection = POSTGRES.connect();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, application);
      try (ResultSet results = statement.executeQuery()) {
        results.next();
        return results.getInt(1);
      }
    }
  }
}
