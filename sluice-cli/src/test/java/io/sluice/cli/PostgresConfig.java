package io.sluice.cli;

import io.sluice.testkit.PostgresTestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A configuration file whose store is a test's PostgreSQL database, with one bare flow. */
final class PostgresConfig {

  private PostgresConfig() {}

  /** Writes {@code app.yaml} in {@code dir} on {@code db}; returns its path. */
  static Path write(Path dir, PostgresTestDatabase db) throws IOException {
    return Files.writeString(
        dir.resolve("app.yaml"),
        """
        sluice:
          store: { url: "%s", user: %s }
        flows: [ { name: bare } ]
        """
            .formatted(db.url(), PostgresTestDatabase.USER));
  }
}
