package io.sluice.core.store;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.serialization.StoredValues;
import java.time.Clock;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;

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
    Set<String> types = new TreeSet<>();
    ServiceLoader.load(StorageFactory.class, loader).forEach(f -> types.add(f.type()));
    return types;
  }

  static Optional<StorageFactory> factory(String type, ClassLoader loader) {
    for (StorageFactory factory : ServiceLoader.load(StorageFactory.class, loader)) {
      if (factory.type().equals(type)) {
        return Optional.of(factory);
      }
    }
    return Optional.empty();
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
