package io.sluice.db;

import static io.sluice.db.TestDb.parameters;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import io.sluice.core.app.Application;
import io.sluice.core.expression.Template;
import io.sluice.core.flow.Flow;
import io.sluice.core.flow.OnError;
import io.sluice.core.processor.SetPayloadProcessor;
import io.sluice.core.router.Foreach;
import io.sluice.core.router.ScatterGather;
import io.sluice.core.router.TryScope;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.transaction.Transaction;
import io.sluice.core.transaction.TransactionalResource;
import io.sluice.db.DbUpdateProcessor.Kind;
import io.sluice.testkit.MariaDbTestDatabase;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A {@code try} with {@code transaction} runs the database work inside it in one transaction, on
 * every database and under every strategy: committed when the scope completes, rolled back before
 * its error branches run, joined by a nested try and by parallel routes, rolled back (and its
 * connection given back) when an outer timeout cuts the message short.
 */
class ATryRunsItsDatabaseWorkInOneTransactionTest {

  @RegisterExtension static final PostgresTestDatabase POSTGRES = new PostgresTestDatabase();
  @RegisterExtension static final MariaDbTestDatabase MARIADB = new MariaDbTestDatabase();
  @TempDir static Path dir;

  static TestDb[] databases() {
    return TestDb.all(POSTGRES, MARIADB, dir);
  }

  static List<ProcessingStrategy> strategies() {
    ThreadingProfile four = ThreadingProfile.builder().maxThreadsActive(4).build();
    return List.of(
        new ProcessingStrategy.Synchronous(four),
        new ProcessingStrategy.Staged(four, four, four),
        ProcessingStrategy.Auto.DEFAULT);
  }

  static List<Arguments> databasesAndStrategies() {
    List<Arguments> all = new ArrayList<>();
    for (TestDb db : databases()) {
      for (ProcessingStrategy strategy : strategies()) {
        all.add(Arguments.of(db, strategy));
      }
    }
    return all;
  }

  private static Processor insert(DataSources sources, String table, String sku) {
    return new DbUpdateProcessor(
        Kind.INSERT,
        sources,
        DbStatement.of(
            "db", "INSERT INTO " + table + " (sku) VALUES (:sku)", parameters("sku", sku), null),
        false);
  }

  /** A try named {@code name} whose processors run in a transaction of data source {@code db}. */
  private static TryScope.Builder inTransaction(String name, DataSources sources) {
    return TryScope.builder(name).transaction(sources.transactional("db"));
  }

  private static Processor fail(String why) {
    return Processor.of(
        ProcessingType.CPU_LITE,
        m -> {
          throw new IllegalStateException(why);
        });
  }

  private static String table(TestDb db) throws Exception {
    String table = TestDb.table("orders");
    db.execute("CREATE TABLE " + table + " (sku varchar(20) primary key)");
    return table;
  }

  private static long rows(TestDb db, String table) throws Exception {
    return db.number("SELECT count(*) FROM " + table);
  }

  private static Message run(Flow flow, SimpleMeterRegistry registry) throws Exception {
    try (Application application =
        Application.builder().flow(flow).meterRegistry(registry).build()) {
      application.start();
      return application.send(flow.name(), Message.of(1)).get(30, TimeUnit.SECONDS);
    }
  }

  private static double transactions(SimpleMeterRegistry registry, String outcome) {
    Counter counter =
        registry.find("sluice.db.transactions").tag("pool", "db").tag("outcome", outcome).counter();
    return counter == null ? 0 : counter.count();
  }

  @ParameterizedTest
  @MethodSource("databasesAndStrategies")
  void theRowsOfAScopeThatCompletedAreCommittedTogether(TestDb db, ProcessingStrategy strategy)
      throws Exception {
    String table = table(db);
    DataSources sources = db.dataSources();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Processor scope =
        inTransaction("order", sources)
            .processors(insert(sources, table, "A"), insert(sources, table, "B"))
            .build();

    run(Flow.builder("orders").processor(scope).strategy(strategy).build(), registry);

    assertThat(rows(db, table)).isEqualTo(2);
    assertThat(transactions(registry, "committed")).isEqualTo(1);
    assertThat(transactions(registry, "rolled-back")).isZero();
  }

  @ParameterizedTest
  @MethodSource("databasesAndStrategies")
  void aFailedScopeRollsBackBeforeItsErrorBranchRuns(TestDb db, ProcessingStrategy strategy)
      throws Exception {
    String table = table(db);
    DataSources sources = db.dataSources();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    // The branch writes the row the scope wrote, outside the scope's transaction: it blocks (or
    // fails, on SQLite) while that transaction still holds the row, and succeeds once it is gone.
    Processor scope =
        inTransaction("order", sources)
            .processors(insert(sources, table, "A"), insert(sources, table, "B"), fail("boom"))
            .onError(
                new OnError.Continue(
                    List.of(),
                    null,
                    List.of(
                        insert(sources, table, "A"),
                        new SetPayloadProcessor(Template.parse("value", "handled")))))
            .build();

    Message result =
        run(Flow.builder("orders").processor(scope).strategy(strategy).build(), registry);

    assertThat(result.payload()).isEqualTo("handled");
    assertThat(db.number("SELECT count(*) FROM " + table + " WHERE sku = 'A'")).isEqualTo(1);
    assertThat(rows(db, table)).isEqualTo(1);
    assertThat(transactions(registry, "rolled-back")).isEqualTo(1);
    assertThat(transactions(registry, "committed")).isZero();
  }

  @ParameterizedTest
  @MethodSource("databases")
  void anErrorCaughtInsideTheScopeFailsTheCommitWherePostgresqlAbortedTheTransaction(TestDb db)
      throws Exception {
    String table = table(db);
    db.execute("INSERT INTO " + table + " (sku) VALUES ('taken')");
    DataSources sources = db.dataSources();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Processor ignoreTheDuplicate =
        TryScope.builder("ignore")
            .processors(insert(sources, table, "taken"))
            .onError(new OnError.Continue(List.of("DB:CONSTRAINT"), null, List.of()))
            .build();
    Processor scope =
        inTransaction("order", sources)
            .processors(insert(sources, table, "A"), ignoreTheDuplicate)
            .onError(
                new OnError.Continue(
                    List.of("DB:QUERY"),
                    null,
                    List.of(new SetPayloadProcessor(Template.parse("value", "not here")))))
            .build();

    if (db.kind().equals("postgresql")) {
      assertThatThrownBy(() -> run(Flow.builder("orders").processor(scope).build(), registry))
          .hasMessageContaining("commit on data source 'db' failed (SQL state 25P02)")
          .hasMessageContaining("nothing was committed");
      assertThat(rows(db, table)).isEqualTo(1);
      assertThat(transactions(registry, "commit-failed")).isEqualTo(1);
    } else {
      run(Flow.builder("orders").processor(scope).build(), registry);
      assertThat(rows(db, table)).as("MariaDB and SQLite keep the transaction going").isEqualTo(2);
    }
  }

  @ParameterizedTest
  @MethodSource("databases")
  void aTryInsideATryOnTheSameDataSourceJoinsItsTransaction(TestDb db) throws Exception {
    String table = table(db);
    DataSources sources = db.dataSources();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    TransactionalResource resource = sources.transactional("db");
    Processor inner =
        TryScope.builder("inner")
            .transaction(resource)
            .processors(insert(sources, table, "B"))
            .build();
    Processor outer =
        TryScope.builder("outer")
            .transaction(resource)
            .processors(insert(sources, table, "A"), inner, fail("after the inner try"))
            .build();

    assertThatThrownBy(() -> run(Flow.builder("orders").processor(outer).build(), registry))
        .hasRootCauseMessage("after the inner try");

    assertThat(rows(db, table)).as("the inner try's row went with the outer's rollback").isZero();
    assertThat(transactions(registry, "committed")).as("the inner try commits nothing").isZero();
    assertThat(transactions(registry, "rolled-back")).isEqualTo(1);
  }

  @ParameterizedTest
  @MethodSource("databasesAndStrategies")
  void parallelRoutesInsideTheScopeShareItsTransaction(TestDb db, ProcessingStrategy strategy)
      throws Exception {
    String table = table(db);
    DataSources sources = db.dataSources();
    List<Processor> inserts = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      inserts.add(insert(sources, table, "R" + i));
    }
    ScatterGather.Builder routes = ScatterGather.builder("fan");
    for (int i = 0; i < 8; i += 2) {
      routes.route(inserts.get(i), inserts.get(i + 1));
    }
    Processor failing =
        inTransaction("order", sources)
            .processors(routes.build(), fail("after the routes"))
            .build();

    assertThatThrownBy(
            () ->
                run(
                    Flow.builder("orders").processor(failing).strategy(strategy).build(),
                    new SimpleMeterRegistry()))
        .hasRootCauseMessage("after the routes");
    assertThat(rows(db, table)).as("every route's rows rolled back with the scope").isZero();

    ScatterGather.Builder again = ScatterGather.builder("fan");
    for (int i = 0; i < 8; i += 2) {
      again.route(inserts.get(i), inserts.get(i + 1));
    }
    Processor completing = inTransaction("order", sources).processors(again.build()).build();
    run(
        Flow.builder("orders").processor(completing).strategy(strategy).build(),
        new SimpleMeterRegistry());
    assertThat(rows(db, table)).isEqualTo(8);
  }

  @ParameterizedTest
  @MethodSource("databasesAndStrategies")
  void aMessageCutShortByAnOuterTimeoutRollsBackAndGivesItsConnectionBack(
      TestDb db, ProcessingStrategy strategy) throws Exception {
    String table = table(db);
    DataSources sources = db.dataSources();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    CountDownLatch inserted = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    Processor blockAfterTheInsert =
        m -> {
          inserted.countDown();
          never.await();
          return m;
        };
    Processor scope =
        inTransaction("order", sources)
            .processors(insert(sources, table, "A"), blockAfterTheInsert)
            .build();
    Processor timed =
        ScatterGather.builder("timed")
            .route(scope)
            .route(new SetPayloadProcessor(Template.parse("value", "other")))
            .timeout(Duration.ofMillis(500))
            .build();
    Flow flow = Flow.builder("orders").processor(timed).strategy(strategy).build();

    try (Application application =
        Application.builder().flow(flow).meterRegistry(registry).build()) {
      application.start();
      var result = application.send("orders", Message.of(1));
      assertThatThrownBy(() -> result.get(30, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasMessageContaining("timed out after PT0.5S");
      assertThat(inserted.getCount()).isZero();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (active(registry) > 0 && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      assertThat(active(registry)).as("connections the pool lent").isZero();
      assertThat(transactions(registry, "rolled-back")).isEqualTo(1);
      assertThat(rows(db, table)).isZero();
    }
  }

  private static double active(SimpleMeterRegistry registry) {
    return registry.find("hikaricp.connections.active").tag("pool", "db").gauge().value();
  }

  @ParameterizedTest
  @MethodSource("databases")
  void streamedRowsStayReadableInsideTheScopeWhileItWrites(TestDb db) throws Exception {
    String from = table(db);
    String to = table(db);
    db.execute("INSERT INTO " + from + " (sku) VALUES ('A'), ('B'), ('C')");
    DataSources sources = db.dataSources();
    Processor select =
        new DbSelectProcessor(
            sources,
            DbStatement.of("db", "SELECT sku FROM " + from + " ORDER BY sku", Map.of(), null),
            true,
            1,
            0);
    Processor copy = insert(sources, to, "#[payload.sku]");
    Processor scope =
        inTransaction("copy", sources)
            .processors(select, new Foreach(null, null, 1, "counter", "rootMessage", List.of(copy)))
            .build();

    run(Flow.builder("copy").processor(scope).build(), new SimpleMeterRegistry());

    assertThat(rows(db, to)).isEqualTo(3);
  }

  @Test
  void onSqliteAScopeThatReadsBeforeItWritesIsNotFailedByAWriterInBetween() throws Exception {
    // In WAL mode (the store's file is), a deferred transaction that read, then met a commit of
    // another connection, failed at its first write with SQLITE_BUSY, which no wait cures.
    TestDb db = TestDb.sqlite(java.nio.file.Files.createDirectories(dir.resolve("wal")));
    db.execute("PRAGMA journal_mode=WAL");
    String table = table(db);
    DataSources sources = db.dataSources();
    TransactionalResource resource = sources.transactional("db");
    resource.acquire(new SimpleMeterRegistry());
    try {
      Transaction transaction = resource.begin();
      transaction.join(
          Connection.class, c -> c.createStatement().executeQuery("SELECT count(*) FROM " + table));
      java.sql.SQLException other = null;
      try (Connection connection = java.sql.DriverManager.getConnection(db.url());
          java.sql.Statement statement = connection.createStatement()) {
        statement.execute("PRAGMA busy_timeout = 200");
        statement.executeUpdate("INSERT INTO " + table + " (sku) VALUES ('other')");
      } catch (java.sql.SQLException e) {
        other = e;
      }
      transaction.join(
          Connection.class,
          c ->
              c.createStatement().executeUpdate("INSERT INTO " + table + " (sku) VALUES ('mine')"));
      transaction.commit();

      assertThat((Throwable) other)
          .as("the other writer waited for the scope's write lock, then gave up")
          .isNotNull()
          .hasMessageContaining("SQLITE_BUSY");
      assertThat(db.number("SELECT count(*) FROM " + table + " WHERE sku = 'mine'")).isEqualTo(1);
    } finally {
      resource.release();
    }
  }

  @Test
  void anOperationAfterTheScopeEndedIsToldTheTransactionEnded() throws Exception {
    TestDb db = TestDb.sqlite(dir);
    DataSources sources = db.dataSources();
    TransactionalResource resource = sources.transactional("db");
    resource.acquire(new SimpleMeterRegistry());
    try {
      Transaction transaction = resource.begin();
      transaction.join(Connection.class, c -> c.createStatement().execute("SELECT 1"));
      transaction.commit();

      assertThatThrownBy(() -> transaction.join(Connection.class, c -> null))
          .isInstanceOf(DbException.class)
          .hasMessageContaining("transaction on data source 'db' failed")
          .hasMessageContaining("it was committed when its try scope ended")
          .hasMessageContaining("an async inside it");
      assertThat(((DbException) catchError(transaction)).errorType())
          .isEqualTo("DB:TRANSACTION_ENDED");
    } finally {
      resource.release();
    }
  }

  private static Throwable catchError(Transaction transaction) {
    try {
      transaction.join(Connection.class, c -> null);
      throw new AssertionError("joined an ended transaction");
    } catch (Exception e) {
      return e;
    }
  }
}
