package io.sluice.db;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.transaction.TransactionalResource;
import io.sluice.db.internal.Pool;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * The named data sources of an application, each pooled by HikariCP. A pool is opened when the
 * first processor naming its data source starts ({@link #acquire}), shared by every processor that
 * names it, and closed when the last of them stops ({@link #release}): when the application stops.
 * Its meters go to the registry of the first processor's flow, tagged {@code pool} with the data
 * source's name.
 */
public final class DataSources {

  private final Map<String, Pool> pools = new ConcurrentHashMap<>();
  private final Map<String, DataSourceResource> transactional = new ConcurrentHashMap<>();

  /** No data source yet. */
  public DataSources() {}

  /** These data sources. */
  public DataSources(List<DataSourceConfig> configs) {
    configs.forEach(this::add);
  }

  /**
   * Adds a data source.
   *
   * @throws IllegalArgumentException when one of its name is there already
   */
  public void add(DataSourceConfig config) {
    if (pools.putIfAbsent(config.name(), new Pool(config)) != null) {
      throw new IllegalArgumentException(
          "data source '" + config.name() + "' is defined already; give each a name of its own");
    }
    transactional.put(config.name(), new DataSourceResource(this, config));
  }

  /**
   * Data source {@code name} as a transactional resource, for a {@code try} whose database
   * operations on it run in one transaction ({@code TryScope.builder(..).transaction(..)}).
   *
   * @throws IllegalArgumentException when no data source has this name
   */
  public TransactionalResource transactional(String name) {
    pool(name);
    return transactional.get(name);
  }

  /** Whether a data source of this name is defined. */
  public boolean knows(String name) {
    return pools.containsKey(name);
  }

  /** The names of the data sources, sorted. */
  public Set<String> names() {
    return Collections.unmodifiableSet(new TreeSet<>(pools.keySet()));
  }

  /** The data source {@code name}'s settings. */
  public DataSourceConfig config(String name) {
    return pool(name).config();
  }

  /**
   * The pool of data source {@code name}, opened when none holds it; every call must be matched by
   * one {@link #release}.
   *
   * @throws IllegalArgumentException when no data source has this name
   */
  public DataSource acquire(String name, MeterRegistry registry) {
    return pool(name).acquire(registry);
  }

  /** Gives back what {@link #acquire} gave; the last release closes the pool. */
  public void release(String name) {
    pool(name).release();
  }

  /** Whether the pool of data source {@code name} is open. */
  public boolean isOpen(String name) {
    return pool(name).isOpen();
  }

  private Pool pool(String name) {
    Pool pool = pools.get(name);
    if (pool == null) {
      throw new IllegalArgumentException(
          "no data source is named '"
              + name
              + "'; "
              + (pools.isEmpty() ? "none is defined" : "the data sources: " + names()));
    }
    return pool;
  }
}
