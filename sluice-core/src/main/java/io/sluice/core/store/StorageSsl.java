package io.sluice.core.store;

import io.sluice.core.ConfigProblems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** The rules of a PostgreSQL storage's TLS settings, checked when its configuration is built. */
final class StorageSsl {

  private StorageSsl() {}

  static void check(
      StorageConfig.Type type,
      String jdbcUrl,
      String sslMode,
      Path sslRootCert,
      Path sslCert,
      Path sslKey,
      ConfigProblems problems) {
    boolean any = sslMode != null || sslRootCert != null || sslCert != null;
    problems.check(
        !any || type == StorageConfig.Type.POSTGRESQL,
        "sluice.store.sslMode",
        sslMode,
        "and the other ssl settings are only for a postgresql store");
    problems.check(
        sslMode == null || StorageConfig.SSL_MODES.contains(sslMode),
        "sluice.store.sslMode",
        sslMode,
        "must be one of " + String.join(", ", StorageConfig.SSL_MODES));
    String url = jdbcUrl == null ? "" : jdbcUrl.toLowerCase(Locale.ROOT);
    problems.check(
        sslMode == null || !url.matches(".*[?&;]sslmode=.*"),
        "sluice.store.sslMode",
        sslMode,
        "is also given in the url, which the driver would take instead; give it once");
    readable(problems, "sluice.store.sslRootCert", sslRootCert);
    readable(problems, "sluice.store.sslCert", sslCert);
    readable(problems, "sluice.store.sslKey", sslKey);
    problems.check(
        (sslCert == null) == (sslKey == null),
        "sluice.store.sslKey",
        sslKey,
        "goes with sslCert: give both or neither");
  }

  private static void readable(ConfigProblems problems, String key, Path file) {
    problems.check(file == null || Files.isReadable(file), key, file, "is not a readable file");
  }
}
