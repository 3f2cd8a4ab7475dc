package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.StoreException;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The storage's sslMode reaches the PostgreSQL driver: against a server without TLS, {@code
 * require} fails naming sslmode, {@code disable} and {@code prefer} connect; broken ssl settings
 * are refused when the configuration is built.
 */
class PostgresSslModeTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  private static JdbcStorage open(StorageConfig config) {
    return (JdbcStorage)
        new PostgresStorageFactory()
            .open(config, TestStorages.values(), new SimpleMeterRegistry(), Clock.systemUTC());
  }

  private static StorageConfig.Builder postgres(String sslMode) {
    return StorageConfig.builder()
        .url(DB.url())
        .user(PostgresTestDatabase.USER)
        .sslMode(sslMode)
        .connectTimeout(Duration.ofSeconds(5));
  }

  /** Whether the server under test has TLS on (the one here does not). */
  private static boolean serverSpeaksTls() throws Exception {
    try (Connection c = DriverManager.getConnection(DB.url(), PostgresTestDatabase.USER, null);
        ResultSet ssl = c.createStatement().executeQuery("SHOW ssl")) {
      ssl.next();
      return "on".equals(ssl.getString(1));
    }
  }

  @Test
  void requireAgainstAServerWithoutTlsFailsNamingSslmode() throws Exception {
    StorageConfig config = postgres("require").build();
    if (serverSpeaksTls()) {
      try (JdbcStorage storage = open(config)) {
        assertThat(storage.describe()).contains("with sslmode=require");
      }
      return;
    }
    StoreException e = catchThrowableOfType(StoreException.class, () -> open(config));
    assertThat(e)
        .hasMessageStartingWith(
            "Could not connect to " + DB.url() + " as postgres with sslmode=require within 5 s:")
        .hasMessageContaining("SSL")
        .hasMessageEndingWith("and that its TLS (ssl = on, its certificate) suits sslmode require");
  }

  @ParameterizedTest
  @ValueSource(strings = {"disable", "prefer"})
  void disableAndPreferConnect(String sslMode) {
    try (JdbcStorage storage = open(postgres(sslMode).build())) {
      assertThat(storage.describe()).contains("as postgres with sslmode=" + sslMode + " (pool");
    }
  }

  @Test
  void brokenSslSettingsAreRefusedWhenBuilt() {
    ConfigurationException e =
        catchThrowableOfType(
            ConfigurationException.class,
            () ->
                StorageConfig.builder()
                    .url(DB.url() + "?sslmode=disable")
                    .sslMode("required")
                    .sslRootCert(Path.of("/nowhere/root.crt"))
                    .build());
    assertThat(e.problems())
        .extracting(ConfigProblem::path, p -> String.valueOf(p.value()), ConfigProblem::rule)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(
                "sluice.store.sslMode",
                "required",
                "must be one of disable, allow, prefer, require, verify-ca, verify-full"),
            org.assertj.core.groups.Tuple.tuple(
                "sluice.store.sslMode",
                "required",
                "is also given in the url, which the driver would take instead; give it once"),
            org.assertj.core.groups.Tuple.tuple(
                "sluice.store.sslRootCert", "/nowhere/root.crt", "is not a readable file"));
  }
}
