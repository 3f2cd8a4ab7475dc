package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.StoreException;
import io.sluice.testkit.PostgresTestDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
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
          .isEqualTo("postgresql " + DB.url() + " as postgres (pool 3, schema v3)");
    }
  }
}
