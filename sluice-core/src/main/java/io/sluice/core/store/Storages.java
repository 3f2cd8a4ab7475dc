package io.sluice.core.store;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.serialization.StoredValues;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.WeakHashMap;

/** Opens the storage a {@link StorageConfig} describes. */
public final class Storages {

  private Storages() {}

  /**
   * Opens the storage through the {@link StorageFactory} of its name that {@code loader} finds
   * (sqlite and postgresql: sluice-jdbc). Fails with a {@link StoreException} naming the type and
   * the installed ones when no factory is installed for it, or when the database cannot be opened.
   */
  public static Storage open(
      StorageConfig config,
      StoredValues values,
      MeterRegistry registry,
      Clock clock,
      ClassLoader loader) {
    return factory(config.type(), loader)
        .orElseThrow(() -> notInstalled(config.type(), loader))
        .open(config, values, registry, clock);
  }

  /** The names of the store types {@code loader} finds, the core's memory included, sorted. */
  public static Set<String> installedTypes(ClassLoader loader) {
    return new TreeSet<>(factories(loader).keySet());
  }

  static Optional<StorageFactory> factory(String type, ClassLoader loader) {
    return Optional.ofNullable(factories(loader).get(type));
  }

  /** The factories each class loader finds, by type: found once per loader, not at every build. */
  private static final Map<ClassLoader, Map<String, StorageFactory>> FOUND = new WeakHashMap<>();

  /**
   * The factories {@code loader} finds, by type; two of one type, or one that cannot be made, are a
   * {@link StoreException} naming them.
   */
  private static Map<String, StorageFactory> factories(ClassLoader loader) {
    synchronized (FOUND) {
      Map<String, StorageFactory> found = FOUND.get(loader);
      if (found != null) {
        return found;
      }
      Map<String, StorageFactory> byType = new HashMap<>();
      try {
        for (StorageFactory factory : ServiceLoader.load(StorageFactory.class, loader)) {
          StorageFactory other = byType.putIfAbsent(factory.type(), factory);
          if (other != null) {
            throw new StoreException(
                "the store type '"
                    + factory.type()
                    + "' is provided by both "
                    + other.getClass().getName()
                    + " and "
                    + factory.getClass().getName()
                    + "; remove one from the class path");
          }
        }
      } catch (ServiceConfigurationError e) {
        throw new StoreException("a store type could not be loaded: " + e.getMessage(), e);
      }
      found = Map.copyOf(byType);
      FOUND.put(loader, found);
      return found;
    }
  }

  private static StoreException notInstalled(String type, ClassLoader loader) {
    boolean jdbc = type.equals(StorageConfig.SQLITE) || type.equals(StorageConfig.POSTGRESQL);
    return new StoreException(
        "the "
            + type
            + " store needs "
            + (jdbc ? "sluice-jdbc" : "the module that provides it")
            + " on the class path, and it is not there (installed store types: "
            + String.join(", ", installedTypes(loader))
            + "); add it, or set sluice.store.type: memory to keep nothing across a restart");
  }
}
