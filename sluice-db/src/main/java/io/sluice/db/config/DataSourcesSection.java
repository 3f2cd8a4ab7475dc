package io.sluice.db.config;

import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.SectionComponent;
import io.sluice.config.spi.TransactionalNames;
import io.sluice.config.spi.UniqueNames;
import io.sluice.core.store.StorageConfig;
import io.sluice.db.DataSourceConfig;
import io.sluice.db.DataSources;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code dataSources} section: the file's named data sources, each password registered as a
 * secret; it also checks that each db processor names one of them.
 */
final class DataSourcesSection implements SectionComponent<DataSources> {

  private static final String POOL = "/$defs/dataSourcePool/properties/";

  @Override
  public String key() {
    return "dataSources";
  }

  @Override
  public Class<DataSources> type() {
    return DataSources.class;
  }

  @Override
  public Map<String, Object> defaults() {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put(POOL + "maxSize", DataSourceConfig.DEFAULT_MAX_SIZE);
    d.put(POOL + "minIdle", DataSourceConfig.DEFAULT_MIN_IDLE);
    d.put(POOL + "connectionTimeout", DataSourceConfig.DEFAULT_CONNECTION_TIMEOUT);
    d.put(POOL + "idleTimeout", DataSourceConfig.DEFAULT_IDLE_TIMEOUT);
    d.put(POOL + "maxLifetime", DataSourceConfig.DEFAULT_MAX_LIFETIME);
    return d;
  }

  @Override
  public DataSources map(ConfigNode node, MappingContext context) {
    DbReferences references = context.shared(DbReferences.class, DbReferences::new);
    UniqueNames names = new UniqueNames("data source", context.problems());
    TransactionalNames transactional =
        context.shared(TransactionalNames.class, TransactionalNames::new);
    for (ConfigNode item : node.items()) {
      String password = item.text("password", null);
      if (password != null) {
        context.secret(password);
      }
      // A password written in the URL is as secret as the key's: masked in every later message.
      StorageConfig.passwordsIn(item.text("url", null)).forEach(context::secret);
      if (!names.add(item)) {
        continue;
      }
      DataSourceConfig config = dataSource(item, password, context);
      if (config != null) {
        references.dataSources.add(config);
        transactional.resources().register(references.dataSources.transactional(config.name()));
      }
    }
    references.names.forEach(
        (path, name) -> context.problems().knownName(path, name, names.names(), "data source"));
    return references.dataSources;
  }

  private static DataSourceConfig dataSource(
      ConfigNode item, String password, MappingContext context) {
    String name = item.text("name", null);
    String url = sqliteRelativeToTheFile(item.text("url", null), context.baseDirectory());
    ConfigNode pool = item.get("pool");
    DataSourceConfig.Builder builder =
        DataSourceConfig.builder(name, url)
            .user(item.text("user", null))
            .password(password)
            .maxSize(pool.integer("maxSize", DataSourceConfig.DEFAULT_MAX_SIZE))
            .minIdle(pool.integer("minIdle", DataSourceConfig.DEFAULT_MIN_IDLE))
            .connectionTimeout(
                pool.duration("connectionTimeout", DataSourceConfig.DEFAULT_CONNECTION_TIMEOUT))
            .idleTimeout(pool.duration("idleTimeout", DataSourceConfig.DEFAULT_IDLE_TIMEOUT))
            .maxLifetime(pool.duration("maxLifetime", DataSourceConfig.DEFAULT_MAX_LIFETIME))
            .initSql(item.texts("initSql"));
    return context.problems().attempt(item.path(), builder::build);
  }

  /**
   * A SQLite URL naming its file by a relative path ({@code jdbc:sqlite:data/shop.db}) names it
   * relative to the configuration file, as every path of the file is; {@code :memory:}, a {@code
   * file:} URI and an absolute path are left as written, and so is what follows a {@code ?}.
   */
  static String sqliteRelativeToTheFile(String url, Path base) {
    String prefix = "jdbc:sqlite:";
    if (url == null || base == null || !url.startsWith(prefix)) {
      return url;
    }
    String rest = url.substring(prefix.length());
    int query = rest.indexOf('?');
    String file = query < 0 ? rest : rest.substring(0, query);
    try {
      if (file.isEmpty() || file.startsWith(":") || file.startsWith("file:")) {
        return url;
      }
      Path path = Path.of(file);
      if (path.isAbsolute()) {
        return url;
      }
      return prefix + base.resolve(path).normalize() + (query < 0 ? "" : rest.substring(query));
    } catch (InvalidPathException e) {
      return url; // the driver says what is wrong with it
    }
  }
}
