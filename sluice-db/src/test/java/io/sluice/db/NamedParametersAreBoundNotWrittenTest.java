package io.sluice.db;

import static io.sluice.db.TestDb.parameters;
import static io.sluice.db.TestDb.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import io.sluice.core.flow.Flow;
import io.sluice.testkit.PostgresTestDatabase;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code :name} becomes a bound {@code ?}; a colon in a literal, a quoted name, a comment, a
 * dollar-quoted text or a PostgreSQL cast does not.
 */
class NamedParametersAreBoundNotWrittenTest {

  @RegisterExtension static final PostgresTestDatabase POSTGRES = new PostgresTestDatabase();

  @Test
  void eachNameBecomesAPlaceholderInOrderAndRepeats() {
    NamedSql sql = NamedSql.parse("SELECT * FROM t WHERE a = :a AND (b = :b OR b = :a)");

    assertThat(sql.jdbcSql()).isEqualTo("SELECT * FROM t WHERE a = ? AND (b = ? OR b = ?)");
    assertThat(sql.positions()).containsExactly("a", "b", "a");
    assertThat(sql.names()).containsExactly("a", "b");
  }

  @Test
  void literalsQuotedNamesCommentsAndCastsHoldNoParameter() {
    String text =
        "SELECT ':x', 'it''s :y', \"col:z\", `c:w`, $$ :d $$, $tag$ :e $tag$, :id::int,"
            + " now()::timestamp -- :comment\n"
            + " /* :block */ FROM t WHERE a[1:2] = :last";

    NamedSql sql = NamedSql.parse(text);

    assertThat(sql.positions()).containsExactly("id", "last");
    assertThat(sql.jdbcSql())
        .isEqualTo(
            "SELECT ':x', 'it''s :y', \"col:z\", `c:w`, $$ :d $$, $tag$ :e $tag$, ?::int,"
                + " now()::timestamp -- :comment\n"
                + " /* :block */ FROM t WHERE a[1:2] = ?");
  }

  @Test
  void aCastAndAQuotedColonRunOnPostgresql() throws Exception {
    DataSources sources =
        new DataSources(
            List.of(
                DataSourceConfig.builder("db", POSTGRES.url())
                    .user(PostgresTestDatabase.USER)
                    .build()));
    Flow flow =
        Flow.builder("cast")
            .processor(
                DbSelectProcessor.of(
                    sources,
                    DbStatement.of(
                        "db",
                        "SELECT :n::int + 1 AS next, ':n' AS literal, :text::text AS text",
                        parameters("n", "#[payload]", "text", "it's '; DROP TABLE x; --"),
                        null)))
            .build();

    Object rows = run(flow, Message.of("41")).payload();

    assertThat(rows)
        .isEqualTo(
            List.of(Map.of("next", 42, "literal", ":n", "text", "it's '; DROP TABLE x; --")));
  }
}
