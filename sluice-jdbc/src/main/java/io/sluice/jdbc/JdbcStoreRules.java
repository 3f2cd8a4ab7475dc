package io.sluice.jdbc;

import io.sluice.core.ConfigProblems;
import io.sluice.core.store.StorageConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;

/**
 * The rules of the sqlite and postgresql store types' settings, checked by their factories when a
 * {@link StorageConfig} is built: the two types share the typed settings, and each refuses those of
 * the other (a URL is only for PostgreSQL, and so is TLS).
 */
final class JdbcStoreRules {

  private JdbcStoreRules() {}

  static void check(StorageConfig config, ConfigProblems problems) {
    String type = config.type();
    boolean postgres = type.equals(StorageConfig.POSTGRESQL);
    String url = config.url();
    problems.check(config.dataDir() != null, "sluice.store.dataDir", null, "is required");
    problems.check(
        !postgres || (url != null && url.startsWith("jdbc:postgresql:")),
        "sluice.store.url",
        config.maskedUrl(),
        "must be a jdbc:postgresql://host:port/database URL for a postgresql store");
    problems.check(
        postgres || url == null,
        "sluice.store.url",
        config.maskedUrl(),
        "is only for a postgresql store; this store is " + type);
    int poolSize = config.poolSize();
    if (problems.check(poolSize >= 1, "sluice.store.poolSize", poolSize, "must be at least 1")) {
      problems.atMost("sluice.store.poolSize", poolSize, StorageConfig.MAX_POOL_SIZE);
    }
    Duration connectTimeout = config.connectTimeout();
    if (problems.check(
        connectTimeout != null && !connectTimeout.isNegative() && !connectTimeout.isZero(),
        "sluice.store.connectTimeout",
        connectTimeout,
        "must be a positive duration")) {
      problems.atMost("sluice.store.connectTimeout", connectTimeout, ConfigProblems.MAX_DURATION);
    }
    problems.check(config.sync() != null, "sluice.store.sync", null, "is required");
    checkSsl(config, postgres, problems);
    config.refuseSettingsOtherThan(Set.of(), problems);
  }

  private static void checkSsl(StorageConfig config, boolean postgres, ConfigProblems problems) {
    String sslMode = config.sslMode();
    boolean any = sslMode != null || config.sslRootCert() != null || config.sslCert() != null;
    problems.check(
        !any || postgres,
        "sluice.store.sslMode",
        sslMode,
        "and the other ssl settings are only for a postgresql store");
    problems.check(
        sslMode == null || StorageConfig.SSL_MODES.contains(sslMode),
        "sluice.store.sslMode",
        sslMode,
        "must be one of " + String.join(", ", StorageConfig.SSL_MODES));
    String url = config.url() == null ? "" : config.url().toLowerCase(Locale.ROOT);
    problems.check(
        sslMode == null || !url.matches(".*[?&;]sslmode=.*"),
        "sluice.store.sslMode",
        sslMode,
        "is also given in the url, which the driver would take instead; give it once");
    readable(problems, "sluice.store.sslRootCert", config.sslRootCert());
    readable(problems, "sluice.store.sslCert", config.sslCert());
    readable(problems, "sluice.store.sslKey", config.sslKey());
    problems.check(
        (config.sslCert() == null) == (config.sslKey() == null),
        "sluice.store.sslKey",
        config.sslKey(),
        "goes with sslCert: give both or neither");
  }

  private static void readable(ConfigProblems problems, String key, Path file) {
    problems.check(file == null || Files.isReadable(file), key, file, "is not a readable file");
  }
}
