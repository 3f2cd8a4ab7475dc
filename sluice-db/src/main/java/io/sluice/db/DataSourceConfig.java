package io.sluice.db;

import io.sluice.core.ConfigProblems;
import io.sluice.core.store.StorageConfig;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One named data source: a JDBC URL, the user and password to connect as, and the settings of its
 * HikariCP pool. Immutable; {@link #toString()} masks the password and a password in the URL.
 *
 * @param name what processors name it by
 * @param url the JDBC URL; its driver is found on the class path by the URL
 * @param user the user, or null (the URL's, or none)
 * @param password the password, or null; never logged or shown in an error
 * @param maxSize the most connections the pool opens
 * @param minIdle the idle connections the pool keeps ready
 * @param connectionTimeout how long a call waits for a connection before it fails
 * @param idleTimeout how long a connection beyond {@code minIdle} stays idle before it is closed
 * @param maxLifetime how long a connection lives before the pool replaces it
 * @param initSql statements run in order, each on its own, whenever the pool opens (before anything
 *     uses it): tables created if they do not exist, seed rows written idempotently
 */
public record DataSourceConfig(
    String name,
    String url,
    String user,
    String password,
    int maxSize,
    int minIdle,
    Duration connectionTimeout,
    Duration idleTimeout,
    Duration maxLifetime,
    List<String> initSql) {

  /** The most connections a pool opens unless {@code maxSize} says. */
  public static final int DEFAULT_MAX_SIZE = 10;

  /** The upper bound of {@code maxSize} (and of {@code minIdle}). */
  public static final int MAX_MAX_SIZE = 1000;

  /** The idle connections a pool keeps unless {@code minIdle} says. */
  public static final int DEFAULT_MIN_IDLE = 1;

  /** How long a call waits for a connection unless {@code connectionTimeout} says. */
  public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(30);

  /** How long an extra connection stays idle unless {@code idleTimeout} says. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(10);

  /** How long a connection lives unless {@code maxLifetime} says. */
  public static final Duration DEFAULT_MAX_LIFETIME = Duration.ofMinutes(30);

  /** The shortest timeout HikariCP takes (it raises a shorter one to 30 s without a word). */
  public static final Duration MIN_CONNECTION_TIMEOUT = Duration.ofMillis(250);

  /** The shortest idle timeout and life HikariCP takes (it replaces shorter ones silently). */
  public static final Duration MIN_LIFETIME = Duration.ofSeconds(30);

  /** A data source of these settings; use {@link #builder(String, String)}, which checks them. */
  public DataSourceConfig {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(url, "url");
    initSql = List.copyOf(initSql);
  }

  /** A builder of a data source named {@code name} on {@code url}, with the default pool. */
  public static Builder builder(String name, String url) {
    return new Builder(name, url);
  }

  /**
   * What an error must never show: the password, and any written inside the URL ({@code
   * password=...}, {@code user:password@}).
   */
  public java.util.List<String> secrets() {
    java.util.List<String> secrets =
        new java.util.ArrayList<>(io.sluice.core.store.StorageConfig.passwordsIn(url));
    if (password != null && !password.isEmpty()) {
      secrets.add(password);
    }
    return secrets;
  }

  /** The URL with a password in it ({@code password=...}, {@code user:password@}) masked. */
  public String maskedUrl() {
    return StorageConfig.mask(url);
  }

  @Override
  public String toString() {
    return "data source '"
        + name
        + "' "
        + maskedUrl()
        + (user == null ? "" : " as " + user)
        + " (pool "
        + minIdle
        + "-"
        + maxSize
        + ", connectionTimeout "
        + ConfigProblems.text(connectionTimeout)
        + (initSql.isEmpty() ? "" : ", initSql: " + initSql.size() + " statement(s)")
        + ")";
  }

  /** Builds a {@link DataSourceConfig}; {@link #build()} checks every rule at once. */
  public static final class Builder {
    private final String name;
    private final String url;
    private String user;
    private String password;
    private int maxSize = DEFAULT_MAX_SIZE;
    private int minIdle = DEFAULT_MIN_IDLE;
    private Duration connectionTimeout = DEFAULT_CONNECTION_TIMEOUT;
    private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
    private Duration maxLifetime = DEFAULT_MAX_LIFETIME;
    private List<String> initSql = List.of();

    private Builder(String name, String url) {
      this.name = name;
      this.url = url;
    }

    /** The user to connect as. */
    public Builder user(String value) {
      this.user = value;
      return this;
    }

    /** The password. */
    public Builder password(String value) {
      this.password = value;
      return this;
    }

    /** The most connections, from 1 to {@value #MAX_MAX_SIZE}. */
    public Builder maxSize(int value) {
      this.maxSize = value;
      return this;
    }

    /** The idle connections kept ready, from 0 to {@code maxSize}. */
    public Builder minIdle(int value) {
      this.minIdle = value;
      return this;
    }

    /** How long a call waits for a connection: from 250ms to 24h. */
    public Builder connectionTimeout(Duration value) {
      this.connectionTimeout = value;
      return this;
    }

    /** How long an extra connection stays idle: 0 (never closed) or from 30s to 24h. */
    public Builder idleTimeout(Duration value) {
      this.idleTimeout = value;
      return this;
    }

    /** How long a connection lives: 0 (for ever) or from 30s to 24h. */
    public Builder maxLifetime(Duration value) {
      this.maxLifetime = value;
      return this;
    }

    /**
     * The statements run in order, each on its own, whenever the pool opens; none may be empty.
     * They run at every start: each must be safe to run again ({@code CREATE TABLE IF NOT EXISTS},
     * an insert that ignores a row already there).
     */
    public Builder initSql(List<String> value) {
      this.initSql = value;
      return this;
    }

    /** The data source, or a {@link io.sluice.core.ConfigurationException} naming every problem. */
    public DataSourceConfig build() {
      ConfigProblems problems = new ConfigProblems();
      problems.check(name != null && !name.isBlank(), "name", name, "is required");
      if (problems.check(
          url != null && url.startsWith("jdbc:"),
          "url",
          url == null ? null : StorageConfig.mask(url),
          url == null ? "is required" : "must be a JDBC URL (jdbc:postgresql://host/db, ...)")) {
        problems.check(
            Drivers.accepts(url),
            "url",
            StorageConfig.mask(url),
            "is taken by no JDBC driver on the class path; drivers found: " + Drivers.names());
      }
      if (problems.check(maxSize >= 1, "pool.maxSize", maxSize, "must be at least 1")) {
        problems.atMost("pool.maxSize", maxSize, MAX_MAX_SIZE);
      }
      if (problems.check(minIdle >= 0, "pool.minIdle", minIdle, "must be at least 0")) {
        problems.check(
            minIdle <= maxSize || maxSize < 1,
            "pool.minIdle",
            minIdle,
            "must be at most pool.maxSize (" + maxSize + ")");
      }
      between(problems, "pool.connectionTimeout", connectionTimeout, MIN_CONNECTION_TIMEOUT, false);
      between(problems, "pool.idleTimeout", idleTimeout, MIN_LIFETIME, true);
      between(problems, "pool.maxLifetime", maxLifetime, MIN_LIFETIME, true);
      if (idleTimeout != null && maxLifetime != null && !maxLifetime.isZero()) {
        problems.check(
            idleTimeout.plusSeconds(1).compareTo(maxLifetime) <= 0,
            "pool.idleTimeout",
            ConfigProblems.text(idleTimeout),
            "must be at least 1s shorter than pool.maxLifetime ("
                + ConfigProblems.text(maxLifetime)
                + "): HikariCP would not close idle connections at all");
      }
      if (problems.check(initSql != null, "initSql", null, "must be a list, not null")) {
        for (int i = 0; i < initSql.size(); i++) {
          String sql = initSql.get(i);
          problems.check(
              sql != null && !sql.isBlank(),
              "initSql[" + i + "]",
              sql,
              "must not be empty: give a statement, or leave the item out");
        }
      }
      problems.throwIfAny();
      return new DataSourceConfig(
          name,
          url,
          user,
          password,
          maxSize,
          minIdle,
          connectionTimeout,
          idleTimeout,
          maxLifetime,
          initSql);
    }

    private static void between(
        ConfigProblems problems, String path, Duration value, Duration min, boolean zeroAllowed) {
      if (!problems.check(value != null, path, null, "is required")) {
        return;
      }
      boolean ok = (zeroAllowed && value.isZero()) || value.compareTo(min) >= 0;
      if (problems.check(
          ok,
          path,
          ConfigProblems.text(value),
          "must be at least "
              + ConfigProblems.text(min)
              + (zeroAllowed ? " (or 0 for none)" : "")
              + ": HikariCP takes no less")) {
        problems.atMost(path, value, ConfigProblems.MAX_DURATION);
      }
    }
  }
}
