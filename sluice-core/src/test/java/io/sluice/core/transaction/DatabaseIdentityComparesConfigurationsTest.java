package io.sluice.core.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A data source shares the application's store when their configurations name one database: the
 * same SQLite file however its path is written, the same PostgreSQL host, port and database
 * whatever the parameters; anything else is told apart or not known.
 */
class DatabaseIdentityComparesConfigurationsTest {

  @Test
  void aSqliteFileIsKnownByItsAbsoluteNormalizedPath() {
    Path file = Path.of("/var/lib/sluice/data/sluice.db");
    assertThat(DatabaseIdentity.ofJdbcUrl("jdbc:sqlite:/var/lib/sluice/data/../data/sluice.db"))
        .isEqualTo(DatabaseIdentity.sqlite(file));
    assertThat(
            DatabaseIdentity.ofJdbcUrl("jdbc:sqlite:/var/lib/sluice/data/sluice.db?busy_timeout=9"))
        .isEqualTo(DatabaseIdentity.sqlite(file));
    assertThat(DatabaseIdentity.ofJdbcUrl("jdbc:sqlite:file:/var/lib/sluice/data/sluice.db"))
        .isEqualTo(DatabaseIdentity.sqlite(file));
    assertThat(DatabaseIdentity.ofJdbcUrl("jdbc:sqlite:/var/lib/sluice/other.db"))
        .isNotEqualTo(DatabaseIdentity.sqlite(file));
  }

  @Test
  void aPostgresqlDatabaseIsKnownByHostPortAndName() {
    String store = DatabaseIdentity.ofJdbcUrl("jdbc:postgresql://DB.example:5432/shop");
    assertThat(store).isEqualTo("postgresql://db.example:5432/shop");
    assertThat(DatabaseIdentity.ofJdbcUrl("jdbc:postgresql://db.example/shop?currentSchema=app"))
        .isEqualTo(store);
    assertThat(DatabaseIdentity.ofJdbcUrl("jdbc:postgresql://db.example:5433/shop"))
        .isNotEqualTo(store);
    assertThat(DatabaseIdentity.ofJdbcUrl("jdbc:postgresql://db.example/stock"))
        .isNotEqualTo(store);
  }

  @Test
  void whatCannotBeComparedIsUnknown() {
    assertThat(DatabaseIdentity.ofJdbcUrl("jdbc:sqlite::memory:")).isNull();
    assertThat(DatabaseIdentity.ofJdbcUrl("jdbc:sqlite:file:x?mode=memory")).isNull();
    assertThat(DatabaseIdentity.ofJdbcUrl("jdbc:mariadb://db/shop")).isNull();
    assertThat(DatabaseIdentity.ofJdbcUrl(null)).isNull();
  }
}
