package io.sluice.core.store;

import io.sluice.core.ConfigProblems;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where an application keeps its stores and queues, as under {@code sluice.store:}. The default is
 * embedded SQLite: one file, {@value #DEFAULT_FILE_NAME}, under the data directory ({@code data}
 * relative to the working directory, or to the configuration file). PostgreSQL is chosen by a
 * {@code jdbc:postgresql:} URL. Immutable; {@link #toString()} masks the password.
 */
public final class StorageConfig {

  /** The kinds of storage. */
  public enum Type {
    /** In the process's memory: nothing survives it. */
    MEMORY,
    /** An embedded SQLite file: one node, no server. */
    SQLITE,
    /** A PostgreSQL server: several nodes share the work. */
    POSTGRESQL;

    /** The name used in configuration: {@code memory}, {@code sqlite}, {@code postgresql}. */
    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** How hard SQLite pushes a commit to the disk. */
  public enum Sync {
    /**
     * Every commit is on the disk before it returns ({@code synchronous=FULL}): survives a power
     * loss. The default; group commit shares one fsync among the writes waiting together.
     */
    FULL,
    /**
     * Commits reach the operating system before they return ({@code synchronous=NORMAL} in WAL
     * mode): survives the process being killed, may lose the last commits on a power loss.
     */
    NORMAL
  }

  /** The SQLite file's name under the data directory. */
  public static final String DEFAULT_FILE_NAME = "sluice.db";

  /** The data directory unless set: {@code data}. */
  public static final Path DEFAULT_DATA_DIR = Path.of("data");

  /** The PostgreSQL pool size unless set: 10. */
  public static final int DEFAULT_POOL_SIZE = 10;

  /** The most connections to PostgreSQL: a thousand (a server allows 100 by default). */
  public static final int MAX_POOL_SIZE = 1000;

  /** How long to wait for a connection or a busy database unless set: 10 s. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);

  /** The values of {@code sslMode}, as the PostgreSQL driver takes them. */
  public static final List<String> SSL_MODES =
      List.of("disable", "allow", "prefer", "require", "verify-ca", "verify-full");

  private static final Pattern PASSWORD_IN_URL =
      Pattern.compile("(?i)(password=)([^&;]*)|(//[^/:@]*:)([^@/]*)(@)");

  private final Type type;
  private final Path dataDir;
  private final String url;
  private final String user;
  private final String password;
  private final int poolSize;
  private final Duration connectTimeout;
  private final Sync sync;
  private final String sslMode;
  private final Path sslRootCert;
  private final Path sslCert;
  private final Path sslKey;

  private StorageConfig(Builder b) {
    this.type = b.type;
    this.dataDir = b.dataDir;
    this.url = b.url;
    this.user = b.user;
    this.password = b.password;
    this.poolSize = b.poolSize;
    this.connectTimeout = b.connectTimeout;
    this.sync = b.sync;
    this.sslMode = b.sslMode;
    this.sslRootCert = b.sslRootCert;
    this.sslCert = b.sslCert;
    this.sslKey = b.sslKey;
  }

  /** Embedded SQLite under {@code data}, every other setting at its default. */
  public static StorageConfig defaults() {
    return builder().build();
  }

  /** Everything in memory: nothing survives the process. */
  public static StorageConfig memory() {
    return builder().type(Type.MEMORY).build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** The kind of storage. */
  public Type type() {
    return type;
  }

  /** The data directory, where the SQLite file lives. */
  public Path dataDir() {
    return dataDir;
  }

  /** The SQLite file: {@value #DEFAULT_FILE_NAME} under the data directory. */
  public Path sqliteFile() {
    return dataDir.resolve(DEFAULT_FILE_NAME);
  }

  /** The JDBC URL of a PostgreSQL storage, or null. */
  public String url() {
    return url;
  }

  /** The URL with any password in it masked, for logs and errors. */
  public String maskedUrl() {
    return mask(url);
  }

  /** The database user, or null. */
  public String user() {
    return user;
  }

  /** The database password, or null. Never logged. */
  public String password() {
    return password;
  }

  /** The most connections to PostgreSQL. */
  public int poolSize() {
    return poolSize;
  }

  /** How long to wait for a connection, or for SQLite's lock. */
  public Duration connectTimeout() {
    return connectTimeout;
  }

  /** How hard SQLite pushes each commit to the disk. */
  public Sync sync() {
    return sync;
  }

  /**
   * PostgreSQL: whether and how the connection uses TLS ({@code disable}, {@code allow}, {@code
   * prefer}, {@code require}, {@code verify-ca}, {@code verify-full}); null for the driver's
   * default ({@code prefer}) or what the URL says.
   */
  public String sslMode() {
    return sslMode;
  }

  /**
   * PostgreSQL: the PEM file of the authorities the server's certificate must come from, or null.
   */
  public Path sslRootCert() {
    return sslRootCert;
  }

  /** PostgreSQL: the client certificate (PEM) presented to the server, or null. */
  public Path sslCert() {
    return sslCert;
  }

  /** PostgreSQL: the client certificate's key (PKCS#8 DER, or PKCS#12), or null. */
  public Path sslKey() {
    return sslKey;
  }

  /** Masks the password in a JDBC URL ({@code password=...} or {@code user:password@}). */
  public static String mask(String url) {
    if (url == null) {
      return null;
    }
    Matcher m = PASSWORD_IN_URL.matcher(url);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String replacement =
          m.group(1) != null ? m.group(1) + "***" : m.group(3) + "***" + m.group(5);
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }

  @Override
  public String toString() {
    return switch (type) {
      case MEMORY -> "memory";
      case SQLITE -> "sqlite " + sqliteFile() + " (synchronous=" + sync + ")";
      case POSTGRESQL ->
          "postgresql "
              + maskedUrl()
              + (user == null ? "" : " user " + user)
              + (password == null ? "" : " password ***")
              + (sslMode == null ? "" : " sslmode=" + sslMode)
              + " (pool "
              + poolSize
              + ")";
    };
  }

  /** Builds a {@link StorageConfig}; {@link #build()} checks every rule. */
  public static final class Builder {
    private Type type;
    private Path dataDir = DEFAULT_DATA_DIR;
    private String url;
    private String user;
    private String password;
    private int poolSize = DEFAULT_POOL_SIZE;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private Sync sync = Sync.FULL;
    private String sslMode;
    private Path sslRootCert;
    private Path sslCert;
    private Path sslKey;

    private Builder() {}

    /** The kind of storage; unless set, PostgreSQL when the URL says so, SQLite otherwise. */
    public Builder type(Type value) {
      this.type = value;
      return this;
    }

    /** The data directory ({@code data} unless set). */
    public Builder dataDir(Path value) {
      this.dataDir = value;
      return this;
    }

    /** A {@code jdbc:postgresql://host:port/database} URL. */
    public Builder url(String value) {
      this.url = value;
      return this;
    }

    /** The database user. */
    public Builder user(String value) {
      this.user = value;
      return this;
    }

    /** The database password. */
    public Builder password(String value) {
      this.password = value;
      return this;
    }

    /** The most connections to PostgreSQL (10 unless set). */
    public Builder poolSize(int value) {
      this.poolSize = value;
      return this;
    }

    /** How long to wait for a connection or a lock (10 s unless set). */
    public Builder connectTimeout(Duration value) {
      this.connectTimeout = value;
      return this;
    }

    /** How hard SQLite pushes each commit to the disk ({@link Sync#FULL} unless set). */
    public Builder sync(Sync value) {
      this.sync = value;
      return this;
    }

    /** PostgreSQL: the driver's {@code sslmode} (the driver's default, prefer, unless set). */
    public Builder sslMode(String value) {
      this.sslMode = value;
      return this;
    }

    /**
     * PostgreSQL: the authorities trusted for the server's certificate (verify-ca, verify-full).
     */
    public Builder sslRootCert(Path value) {
      this.sslRootCert = value;
      return this;
    }

    /** PostgreSQL: a client certificate and its key, for a server that asks for one. */
    public Builder sslCert(Path certificate, Path key) {
      this.sslCert = certificate;
      this.sslKey = key;
      return this;
    }

    /** The configuration; fails listing every broken rule. */
    public StorageConfig build() {
      if (type == null) {
        type = url != null && url.startsWith("jdbc:postgresql:") ? Type.POSTGRESQL : Type.SQLITE;
      }
      ConfigProblems problems = new ConfigProblems();
      problems.check(dataDir != null, "sluice.store.dataDir", null, "is required");
      problems.check(
          type != Type.POSTGRESQL || (url != null && url.startsWith("jdbc:postgresql:")),
          "sluice.store.url",
          mask(url),
          "must be a jdbc:postgresql://host:port/database URL for a postgresql store");
      problems.check(
          type == Type.POSTGRESQL || url == null,
          "sluice.store.url",
          mask(url),
          "is only for a postgresql store; this store is " + type.configName());
      if (problems.check(poolSize >= 1, "sluice.store.poolSize", poolSize, "must be at least 1")) {
        problems.atMost("sluice.store.poolSize", poolSize, MAX_POOL_SIZE);
      }
      if (problems.check(
          connectTimeout != null && !connectTimeout.isNegative() && !connectTimeout.isZero(),
          "sluice.store.connectTimeout",
          connectTimeout,
          "must be a positive duration")) {
        problems.atMost("sluice.store.connectTimeout", connectTimeout, ConfigProblems.MAX_DURATION);
      }
      problems.check(sync != null, "sluice.store.sync", null, "is required");
      StorageSsl.check(type, url, sslMode, sslRootCert, sslCert, sslKey, problems);
      problems.throwIfAny();
      return new StorageConfig(this);
    }
  }
}
