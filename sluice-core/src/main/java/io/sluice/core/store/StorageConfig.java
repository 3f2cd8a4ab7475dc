package io.sluice.core.store;

import io.sluice.core.ConfigProblems;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where an application keeps its stores and queues, as under {@code sluice.store:}: a store type,
 * named (an open set: {@value #MEMORY} is the core's, the others are opened and validated by the
 * {@link StorageFactory} of that name), and its settings. The default is embedded SQLite: one file,
 * {@value #DEFAULT_FILE_NAME}, under the data directory ({@code data} relative to the working
 * directory, or to the configuration file). PostgreSQL is chosen by a {@code jdbc:postgresql:} URL.
 * The settings of SQLite and PostgreSQL have typed accessors; a type of another module reads its
 * own from {@link #settings()}. Immutable; {@link #toString()} masks the password.
 */
public final class StorageConfig {

  /** The type kept in the process's memory, built into the core: nothing survives the process. */
  public static final String MEMORY = "memory";

  /** The embedded SQLite type (sluice-jdbc), the default: one node, no server. */
  public static final String SQLITE = "sqlite";

  /** The PostgreSQL type (sluice-jdbc), implied by a {@code jdbc:postgresql:} URL. */
  public static final String POSTGRESQL = "postgresql";

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

  private final String type;
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
  private final Map<String, Object> settings;

  private StorageConfig(Builder b, String type) {
    this.type = type;
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
    this.settings = Collections.unmodifiableMap(new LinkedHashMap<>(b.settings));
  }

  /** Embedded SQLite under {@code data}, every other setting at its default. */
  public static StorageConfig defaults() {
    return builder().build();
  }

  /** Everything in memory: nothing survives the process. */
  public static StorageConfig memory() {
    return builder().type(MEMORY).build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** The store type's name: {@value #MEMORY}, {@value #SQLITE}, {@value #POSTGRESQL} or another. */
  public String type() {
    return type;
  }

  /**
   * The settings of a store type without typed accessors, by key as written under {@code
   * sluice.store} ({@code capacity}), in the order they were set; empty for the built-in types.
   */
  public Map<String, Object> settings() {
    return settings;
  }

  /**
   * Records each of {@link #settings()} whose key is not in {@code taken} as "is not a setting of a
   * &lt;type&gt; store", at {@code sluice.store.<key>}: for a factory's {@link
   * StorageFactory#check}.
   */
  public void refuseSettingsOtherThan(Set<String> taken, ConfigProblems problems) {
    settings.forEach(
        (key, value) ->
            problems.check(
                taken.contains(key),
                "sluice.store." + key,
                value,
                "is not a setting of a " + type + " store"));
  }

  /**
   * The type a configuration without one has: {@value #POSTGRESQL} for a {@code jdbc:postgresql:}
   * URL, {@value #SQLITE} otherwise.
   */
  public static String impliedType(String url) {
    return url != null && url.startsWith("jdbc:postgresql:") ? POSTGRESQL : SQLITE;
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

  /**
   * The passwords written in a JDBC URL ({@code password=...}, {@code user:password@}), in order,
   * so that a caller can register them as secrets; empty when there is none (or no URL).
   */
  public static List<String> passwordsIn(String url) {
    List<String> found = new ArrayList<>();
    if (url != null) {
      Matcher m = PASSWORD_IN_URL.matcher(url);
      while (m.find()) {
        String password = m.group(1) != null ? m.group(2) : m.group(4);
        if (!password.isEmpty()) {
          found.add(password);
        }
      }
    }
    return found;
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
      // Only the names: a plug-in type's setting may be a secret, and this goes to the log.
      default -> settings.isEmpty() ? type : type + " " + settings.keySet();
    };
  }

  /** Builds a {@link StorageConfig}; {@link #build()} checks every rule. */
  public static final class Builder {
    private String type;
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
    private final Map<String, Object> settings = new LinkedHashMap<>();
    private ClassLoader loader =
        Thread.currentThread().getContextClassLoader() != null
            ? Thread.currentThread().getContextClassLoader()
            : StorageConfig.class.getClassLoader();

    private Builder() {}

    /**
     * The store type's name; unless set, {@value #POSTGRESQL} when the URL says so, {@value
     * #SQLITE} otherwise ({@link #impliedType(String)}).
     */
    public Builder type(String value) {
      this.type = value;
      return this;
    }

    /**
     * A setting of a store type without typed accessors ({@code capacity}), checked by its factory
     * at {@link #build()}.
     */
    public Builder setting(String key, Object value) {
      this.settings.put(Require.nonNull(key, "key"), value);
      return this;
    }

    /**
     * Where the factory that checks the type's settings is looked for ({@link
     * java.util.ServiceLoader}); unless set, the thread's context class loader (or the core's),
     * where {@code Application} looks for it to open the storage.
     */
    public Builder loader(ClassLoader value) {
      this.loader = Require.nonNull(value, "loader");
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

    /**
     * The configuration; fails listing every broken rule. The rules are the store type's: the
     * {@link StorageFactory} of the type found by {@link #loader(ClassLoader)} checks its own (the
     * core's {@value #MEMORY} too); a type no factory is found for is refused when it is opened
     * ({@link Storages#open}).
     */
    public StorageConfig build() {
      // Implied each time, not kept: a builder given a URL, then none, is a SQLite one again.
      String type = this.type == null ? impliedType(url) : this.type;
      ConfigProblems problems = new ConfigProblems();
      StorageConfig config = new StorageConfig(this, type);
      if (problems.check(!type.isBlank(), "sluice.store.type", type, "must name a store type")) {
        Storages.factory(type, loader).ifPresent(factory -> factory.check(config, problems));
      }
      problems.throwIfAny();
      return config;
    }
  }
}
