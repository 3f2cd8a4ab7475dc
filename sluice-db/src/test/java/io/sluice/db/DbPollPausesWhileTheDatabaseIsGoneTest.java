package io.sluice.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sluice.core.app.Application;
import io.sluice.core.store.StorageConfig;
import io.sluice.testkit.PostgresTestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL goes away under a db-poll: its connections are cut ({@code pg_terminate_backend}) and
 * no new one is let in (its role made NOLOGIN, so that the outage lasts, on this test's own role
 * only). Polling pauses with one connectivity warning, and when the database lets it in again the
 * rows inserted meanwhile are handed over, none skipped and none twice.
 */
class DbPollPausesWhileTheDatabaseIsGoneTest {

  @RegisterExtension static final PostgresTestDatabase POSTGRES = new PostgresTestDatabase();

  private final String role = "dbpoll_" + UUID.randomUUID().toString().substring(0, 8);
  private final ListAppender<ILoggingEvent> log = new ListAppender<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger(DbPollSource.class);

  @BeforeEach
  void listen() {
    log.start();
    logger.addAppender(log);
  }

  @AfterEach
  void dropRole() throws Exception {
    logger.detachAppender(log);
    POSTGRES.execute("DROP OWNED BY " + role);
    POSTGRES.execute("DROP ROLE " + role);
  }

  @Test
  void pollingPausesWhileTheDatabaseIsGoneAndResumesWithNoRowSkipped() throws Exception {
    TestDb postgres = TestDb.postgres(POSTGRES);
    String table = DbPollHandsEachRowOnceInOrderTest.createTable(postgres);
    POSTGRES.execute("CREATE ROLE " + role + " LOGIN");
    POSTGRES.execute("GRANT USAGE ON SCHEMA " + POSTGRES.schema() + " TO " + role);
    POSTGRES.execute("GRANT SELECT ON " + table + " TO " + role);
    TestDb db = new TestDb("postgresql", POSTGRES.url(), role);
    DataSources sources =
        new DataSources(
            List.of(
                DataSourceConfig.builder("db", db.url())
                    .user(role)
                    .maxSize(2)
                    .connectionTimeout(Duration.ofMillis(500))
                    .build()));
    Polled.insert(postgres, table, "a", 5);
    DbPollSource source = new DbPollSource(sources, Polled.byId(table).build());
    Polled polled = new Polled();
    try (Application app = polled.application("orders", source, StorageConfig.memory())) {
      app.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> polled.completed().size() >= 5);

      POSTGRES.execute("ALTER ROLE " + role + " NOLOGIN");
      POSTGRES.execute(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '" + role + "'");
      Polled.insert(postgres, table, "b", 5);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  app.meterRegistry()
                          .get("sluice.db.poll.failed")
                          .tag("flow", "orders")
                          .counter()
                          .count()
                      >= 3);
      assertThat(polled.completed()).hasSize(5);
      POSTGRES.execute("ALTER ROLE " + role + " LOGIN");
      await().atMost(Duration.ofSeconds(30)).until(() -> polled.completed().size() >= 10);
    }

    assertThat(polled.delivered()).isEqualTo(Polled.ids(1, 10));
    List<String> warnings =
        log.list.stream()
            .filter(e -> e.getLevel() == Level.WARN)
            .map(ILoggingEvent::getFormattedMessage)
            .toList();
    assertThat(warnings)
        .as("one warning for the whole outage")
        .singleElement()
        .satisfies(
            w ->
                assertThat(w)
                    .contains(
                        "db-poll of flow 'orders' failed querying data source 'db'",
                        "polling pauses",
                        "DB:CONNECTIVITY"));
    assertThat(log.list)
        .filteredOn(e -> e.getLevel() == Level.INFO)
        .extracting(ILoggingEvent::getFormattedMessage)
        .anySatisfy(i -> assertThat(i).contains("works again after"));
  }
}
