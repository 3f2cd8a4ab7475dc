package io.sluice.config.spi;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.core.store.StorageConfig;
import java.nio.file.Path;
import java.util.Set;

/**
 * A store type as {@code sluice.store} names it ({@code type: sqlite}): its key is the type's name,
 * its schema fragment's {@code properties} are the keys it adds under {@code sluice.store} (a key
 * two types share is described the same by both), and its mapping makes the {@link StorageConfig}
 * whose factory checks the settings. The type's {@link io.sluice.core.store.StorageFactory} opens
 * it; the component only reads the file.
 */
public interface StoreComponent extends ConfigComponent<StorageConfig> {

  @Override
  default ComponentKind kind() {
    return ComponentKind.STORE;
  }

  /**
   * Whether what the store holds survives a restart; a section that needs it ({@link
   * SectionComponent#needsDurableStore()}) refuses a store that does not.
   */
  default boolean durable() {
    return true;
  }

  /**
   * The configuration of this type: the typed settings of {@link StorageConfig} written under
   * {@code sluice.store} (paths relative to the file's directory), then the type's own ({@link
   * #settings}), built where the file's components are found; null, with the problems recorded,
   * when it is broken.
   */
  @Override
  default StorageConfig map(ConfigNode node, MappingContext context) {
    StorageConfig.Builder config =
        StorageConfig.builder().type(key()).loader(context.componentLoader());
    typedSettings(node, context, config);
    settings(node, context, config);
    return context.problems().attempt("", config::build);
  }

  /**
   * Reads the keys written under {@code sluice.store} that are no typed setting of {@link
   * StorageConfig} into {@code config} ({@link StorageConfig.Builder#setting}), for the type's
   * factory to check (a key of another type is refused there, not ignored): by default each as
   * written, a whole number as a {@code Long}, a decimal as a {@code Double}, a boolean and a text
   * as themselves, anything else as its JSON text. A type with a duration or a path overrides it.
   */
  default void settings(ConfigNode node, MappingContext context, StorageConfig.Builder config) {
    if (!node.isPresent() || !node.node().isObject()) {
      return;
    }
    node.node()
        .properties()
        .forEach(
            written -> {
              if (!TYPED_KEYS.contains(written.getKey())) {
                JsonNode value = written.getValue();
                config.setting(
                    written.getKey(),
                    value.isIntegralNumber()
                        ? (Object) value.longValue()
                        : value.isNumber()
                            ? (Object) value.doubleValue()
                            : value.isBoolean()
                                ? (Object) value.booleanValue()
                                : value.isTextual() ? value.textValue() : value.toString());
              }
            });
  }

  /** The keys of {@code sluice.store} read into {@link StorageConfig}'s typed settings. */
  Set<String> TYPED_KEYS =
      Set.of(
          "type",
          "dataDir",
          "sync",
          "url",
          "user",
          "password",
          "poolSize",
          "connectTimeout",
          "sslMode",
          "sslRootCert",
          "sslCert",
          "sslKey");

  private static void typedSettings(
      ConfigNode node, MappingContext context, StorageConfig.Builder config) {
    // A dataDir that is no path (a NUL in it) is a problem at its line; the default stands in.
    Path dataDir = node.has("dataDir") ? context.path(node, "dataDir") : null;
    config.dataDir(
        context
            .baseDirectory()
            .resolve(dataDir != null ? dataDir : StorageConfig.DEFAULT_DATA_DIR));
    // An unknown sync is reported by the schema, at its line; it is left unset here.
    String sync = node.text("sync", null);
    for (StorageConfig.Sync s : StorageConfig.Sync.values()) {
      if (s.name().equals(sync)) {
        config.sync(s);
      }
    }
    config.url(node.text("url", null));
    config.user(node.text("user", null));
    config.password(node.text("password", null));
    config.poolSize(node.integer("poolSize", StorageConfig.DEFAULT_POOL_SIZE));
    config.connectTimeout(node.duration("connectTimeout", StorageConfig.DEFAULT_CONNECT_TIMEOUT));
    config.sslMode(node.text("sslMode", null));
    if (node.has("sslRootCert")) {
      config.sslRootCert(context.path(node, "sslRootCert"));
    }
    if (node.has("sslCert") || node.has("sslKey")) {
      config.sslCert(
          node.has("sslCert") ? context.path(node, "sslCert") : null,
          node.has("sslKey") ? context.path(node, "sslKey") : null);
    }
  }
}
