package io.sluice.core.transaction;

import java.net.URI;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Which database a JDBC URL reaches, as a text two configurations are compared by: {@code
 * sqlite:<absolute normalized path>} for a SQLite file, {@code
 * postgresql://<host>:<port>/<database>} (host in lower case, port 5432 when none is written) for
 * PostgreSQL, null for anything else (an in-memory SQLite database, another database): a
 * transaction is shared with the application's own store only when both give the same text. It is a
 * comparison of configurations, not of servers: {@code localhost} and {@code 127.0.0.1} are two
 * hosts here.
 */
public final class DatabaseIdentity {

  private DatabaseIdentity() {}

  /** The identity of the SQLite database in {@code file}. */
  public static String sqlite(Path file) {
    return "sqlite:" + file.toAbsolutePath().normalize();
  }

  /** The identity of the database {@code jdbcUrl} reaches, or null when it cannot tell. */
  public static String ofJdbcUrl(String jdbcUrl) {
    if (jdbcUrl == null) {
      return null;
    }
    if (jdbcUrl.startsWith("jdbc:sqlite:")) {
      String rest = jdbcUrl.substring("jdbc:sqlite:".length());
      int query = rest.indexOf('?');
      String file = query < 0 ? rest : rest.substring(0, query);
      if (file.startsWith("file:")) {
        file = file.substring("file:".length());
      }
      if (file.isEmpty() || file.startsWith(":") || rest.contains("mode=memory")) {
        return null;
      }
      try {
        return sqlite(Path.of(file));
      } catch (InvalidPathException e) {
        return null;
      }
    }
    if (jdbcUrl.startsWith("jdbc:postgresql://")) {
      try {
        URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
        String host = uri.getHost();
        String path = uri.getPath();
        if (host == null || path == null || path.length() < 2) {
          return null;
        }
        int port = uri.getPort() < 0 ? 5432 : uri.getPort();
        return "postgresql://" + host.toLowerCase(Locale.ROOT) + ":" + port + path;
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    return null;
  }
}
