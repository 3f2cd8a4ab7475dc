package io.sluice.db;

import static io.sluice.db.TestDb.parameters;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.expression.Template;
import io.sluice.core.flow.Flow;
import io.sluice.core.router.TryScope;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.vm.VmListenerSource;
import io.sluice.core.vm.VmPersistence;
import io.sluice.core.vm.VmPublishProcessor;
import io.sluice.db.DbUpdateProcessor.Kind;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A persistent {@code vm-publish} inside a {@code try} whose data source is the application's own
 * store writes its message in the scope's transaction: the message and the row are committed
 * together, or rolled back together. On another database the message is published after the commit,
 * and never after a rollback.
 */
class APublishInsideATransactionCommitsWithItsRowTest {

  @RegisterExtension static final PostgresTestDatabase POSTGRES = new PostgresTestDatabase();
  @TempDir static Path dir;

  /** A data source and the application's store on one database. */
  record Shared(TestDb db, StorageConfig store) {
    @Override
    public String toString() {
      return db.kind();
    }
  }

  static List<Shared> shared() throws Exception {
    Path data = java.nio.file.Files.createDirectories(dir.resolve("shared"));
    return List.of(
        new Shared(
            new TestDb(
                "sqlite", "jdbc:sqlite:" + data.resolve(StorageConfig.DEFAULT_FILE_NAME), null),
            StorageConfig.builder().dataDir(data).build()),
        new Shared(
            TestDb.postgres(POSTGRES),
            StorageConfig.builder().url(POSTGRES.url()).user(PostgresTestDatabase.USER).build()));
  }

  private final List<Object> received = new CopyOnWriteArrayList<>();

  private Application application(DataSources sources, StorageConfig store, Processor... scope) {
    Flow orders =
        Flow.builder("orders")
            .processor(
                TryScope.builder("order")
                    .transaction(sources.transactional("db"))
                    .processors(scope)
                    .build())
            .build();
    Flow work =
        Flow.builder("work")
            .source(new VmListenerSource("work", 1, VmPersistence.DEFAULTS))
            .processor(
                Processor.of(
                    ProcessingType.CPU_LITE,
                    m -> {
                      received.add(m.payload());
                      return m;
                    }))
            .build();
    return Application.builder().storage(store).flow(orders).flow(work).build();
  }

  private static Processor insert(DataSources sources, String table) {
    return new DbUpdateProcessor(
        Kind.INSERT,
        sources,
        DbStatement.of(
            "db",
            "INSERT INTO " + table + " (sku) VALUES (:sku)",
            parameters("sku", "#[payload]"),
            "inserted"),
        false);
  }

  private static Processor publish() {
    return new VmPublishProcessor("work", false, Duration.ofSeconds(5), true);
  }

  /** The messages of the queue as the scope's own connection sees them, into a variable. */
  private static Processor queuedInTheScope(DataSources sources) {
    return new DbSelectProcessor(
        sources,
        DbStatement.of(
            "db",
            "SELECT count(*) AS n FROM sluice_queue WHERE queue = :queue",
            Map.of("queue", Template.parse("queue", VmPersistence.durableName("work"))),
            "queued"),
        false,
        0,
        0);
  }

  private static Processor fail() {
    return Processor.of(
        ProcessingType.CPU_LITE,
        m -> {
          throw new IllegalStateException("after the publish");
        });
  }

  private static String table(TestDb db) throws Exception {
    String table = TestDb.table("orders");
    db.execute("CREATE TABLE " + table + " (sku varchar(20) primary key)");
    return table;
  }

  @ParameterizedTest
  @MethodSource("shared")
  void theMessageIsWrittenInTheScopesTransactionAndCommittedWithTheRow(Shared shared)
      throws Exception {
    TestDb db = shared.db();
    String table = table(db);
    DataSources sources = db.dataSources();
    try (Application app =
        application(
            sources,
            shared.store(),
            insert(sources, table),
            publish(),
            queuedInTheScope(sources))) {
      app.start();
      Message result = app.send("orders", Message.of("A")).get(30, TimeUnit.SECONDS);

      assertThat(result.variable("queued"))
          .as("the scope's own connection sees its message before the commit")
          .asString()
          .contains("=1");
      await().atMost(Duration.ofSeconds(20)).until(() -> received.equals(List.of("A")));
      assertThat(db.number("SELECT count(*) FROM " + table)).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @MethodSource("shared")
  void aRolledBackScopeLeavesNeitherTheRowNorTheMessage(Shared shared) throws Exception {
    TestDb db = shared.db();
    String table = table(db);
    DataSources sources = db.dataSources();
    try (Application app =
        application(sources, shared.store(), insert(sources, table), publish(), fail())) {
      app.start();
      assertThatThrownBy(() -> app.send("orders", Message.of("A")).get(30, TimeUnit.SECONDS))
          .hasRootCauseMessage("after the publish");

      assertThat(db.number("SELECT count(*) FROM " + table)).isZero();
      assertThat(
              db.number(
                  "SELECT count(*) FROM sluice_queue WHERE queue = '"
                      + VmPersistence.durableName("work")
                      + "'"))
          .isZero();
    }
  }

  @Test
  void onAnotherDatabaseTheMessageIsPublishedAfterTheCommitAndNeverAfterARollback()
      throws Exception {
    TestDb db = TestDb.sqlite(dir.resolve("apart"));
    java.nio.file.Files.createDirectories(dir.resolve("apart"));
    String table = table(db);
    DataSources sources = db.dataSources();
    Processor failOnB =
        Processor.of(
            ProcessingType.CPU_LITE,
            m -> {
              if ("B".equals(m.payload())) {
                throw new IllegalStateException("B fails");
              }
              return m;
            });
    try (Application app =
        application(
            sources,
            StorageConfig.builder().dataDir(dir.resolve("store")).build(),
            insert(sources, table),
            publish(),
            failOnB)) {
      app.start();
      assertThatThrownBy(() -> app.send("orders", Message.of("B")).get(30, TimeUnit.SECONDS))
          .hasRootCauseMessage("B fails");
      app.send("orders", Message.of("C")).get(30, TimeUnit.SECONDS);

      // One consumer takes them in order: had B been published, it would come before C.
      await().atMost(Duration.ofSeconds(20)).until(() -> !received.isEmpty());
      assertThat(received).containsExactly("C");
      assertThat(db.number("SELECT count(*) FROM " + table)).isEqualTo(1);
    }
  }
}
