package io.sluice.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.batch.BatchInput;
import io.sluice.batch.BatchRecord;
import io.sluice.core.Message;
import io.sluice.core.RowMap;
import io.sluice.core.flow.Flow;
import io.sluice.core.router.Foreach;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.testkit.MariaDbTestDatabase;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A selected row, listed or streamed, is a {@link RowMap} of its columns by label, in the query's
 * order, a null column a key holding null, which the flow may change. A label given to two columns
 * is one key, in the first one's place, holding the last one's value: as the {@link LinkedHashMap}
 * rows were before. The batch {@code query} input's records are the same rows (and so are {@code
 * db-poll}'s: it reads through the listed select).
 */
class ARowIsAMapOfItsColumnsOnEachDatabaseTest {

  @RegisterExtension static final PostgresTestDatabase POSTGRES = new PostgresTestDatabase();
  @RegisterExtension static final MariaDbTestDatabase MARIADB = new MariaDbTestDatabase();
  @TempDir static Path dir;

  static TestDb[] databases() {
    return TestDb.all(POSTGRES, MARIADB, dir);
  }

  private static String table(TestDb db) throws Exception {
    String table = TestDb.table("rowmaps");
    db.execute("CREATE TABLE " + table + " (id integer, sku varchar(20), note varchar(20))");
    db.execute("INSERT INTO " + table + " VALUES (1, 'A-1', NULL), (2, 'B-2', 'second')");
    return table;
  }

  private static Flow select(TestDb db, String name, String sql, boolean streaming) {
    DbSelectProcessor select =
        new DbSelectProcessor(
            db.dataSources(), DbStatement.of("db", sql, Map.of(), null), streaming, 10, 0);
    return Flow.builder(name).processor(select).build();
  }

  @ParameterizedTest
  @MethodSource("databases")
  void aListedRowIsAMapOfItsColumnsInOrderThatTheFlowMayChange(TestDb db) throws Exception {
    String table = table(db);

    List<?> rows =
        (List<?>)
            TestDb.run(
                    select(
                        db, "listed", "SELECT id, sku, note FROM " + table + " ORDER BY id", false),
                    Message.of(null))
                .payload();

    assertThat(rows).hasSize(2).allSatisfy(row -> assertThat(row).isInstanceOf(RowMap.class));
    @SuppressWarnings("unchecked")
    Map<String, Object> first = (Map<String, Object>) rows.getFirst();
    assertThat(new ArrayList<>(first.keySet())).containsExactly("id", "sku", "note");
    assertThat(((Number) first.get("id")).intValue()).isEqualTo(1);
    assertThat(first.get("sku")).isEqualTo("A-1");
    assertThat(first.containsKey("note")).isTrue();
    assertThat(first.get("note")).isNull();
    LinkedHashMap<String, Object> expected = new LinkedHashMap<>(first);
    assertThat(first).isEqualTo(expected).hasSameHashCodeAs(expected);

    first.put("note", "changed");
    first.put("added", true);
    first.remove("id");
    assertThat(first.toString()).isEqualTo("{sku=A-1, note=changed, added=true}");
  }

  @ParameterizedTest
  @MethodSource("databases")
  void aLabelGivenTwiceIsOneKeyHoldingTheLastColumnsValue(TestDb db) throws Exception {
    String table = table(db);

    List<?> rows =
        (List<?>)
            TestDb.run(
                    select(
                        db,
                        "twice",
                        "SELECT id AS x, note AS y, sku AS x FROM " + table + " ORDER BY id",
                        false),
                    Message.of(null))
                .payload();

    Map<?, ?> first = (Map<?, ?>) rows.getFirst();
    assertThat(new ArrayList<Object>(first.keySet())).containsExactly("x", "y");
    assertThat(first.get("x")).isEqualTo("A-1");
    assertThat(first.get("y")).isNull();
    assertThat(((Map<?, ?>) rows.get(1)).get("y")).isEqualTo("second");
  }

  @ParameterizedTest
  @MethodSource("databases")
  void aStreamedRowIsTheSameMapAsAListedOne(TestDb db) throws Exception {
    String table = table(db);
    List<Object> seen = new CopyOnWriteArrayList<>();
    Flow streamed =
        Flow.builder("streamed")
            .processor(
                new DbSelectProcessor(
                    db.dataSources(),
                    DbStatement.of(
                        "db",
                        "SELECT id, sku, note FROM " + table + " ORDER BY id",
                        Map.of(),
                        null),
                    true,
                    1,
                    0))
            .processor(
                Foreach.of(
                    Processor.of(
                        ProcessingType.CPU_LITE,
                        m -> {
                          seen.add(m.payload());
                          return m;
                        })))
            .build();

    TestDb.run(streamed, Message.of(null));
    List<?> listed =
        (List<?>)
            TestDb.run(
                    select(
                        db, "listed", "SELECT id, sku, note FROM " + table + " ORDER BY id", false),
                    Message.of(null))
                .payload();

    assertThat(seen).hasSize(2).allSatisfy(row -> assertThat(row).isInstanceOf(RowMap.class));
    assertThat(seen).isEqualTo(listed);
    assertThat(seen.getFirst()).isNotSameAs(seen.get(1));
  }

  @ParameterizedTest
  @MethodSource("databases")
  void theBatchQueryInputsRecordsAreTheSameRows(TestDb db) throws Exception {
    String table = table(db);
    String sql = "SELECT id, sku, note FROM " + table + " WHERE id > :after ORDER BY id";
    BatchInput input =
        new QueryInput(
            db.dataSources(), QueryInputConfig.builder("db", sql).keyColumn("id").build());
    List<Object> records = new ArrayList<>();
    try (BatchInput.Reader reader = input.open(0)) {
      for (BatchRecord r = reader.next(); r != null; r = reader.next()) {
        records.add(r.payload());
      }
    }
    List<?> listed =
        (List<?>)
            TestDb.run(
                    select(
                        db, "listed", "SELECT id, sku, note FROM " + table + " ORDER BY id", false),
                    Message.of(null))
                .payload();

    assertThat(records).hasSize(2).allSatisfy(row -> assertThat(row).isInstanceOf(RowMap.class));
    assertThat(records).isEqualTo(listed);
  }
}
