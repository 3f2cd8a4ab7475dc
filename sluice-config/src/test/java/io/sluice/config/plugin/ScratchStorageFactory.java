package io.sluice.config.plugin;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.ConfigProblems;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.StorageFactory;
import io.sluice.core.store.StoreException;
import io.sluice.core.store.memory.MemoryStorage;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Opens the {@code scratch} store type of the test sources: memory that gives out at most {@code
 * maxStores} object stores and queues (10 unless set, from 1 to 100, checked here).
 */
public final class ScratchStorageFactory implements StorageFactory {

  /** The type's name. */
  public static final String TYPE = "scratch";

  /** The most stores and queues unless {@code maxStores} says. */
  public static final long DEFAULT_MAX_STORES = 10;

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public void check(StorageConfig config, ConfigProblems problems) {
    config.refuseSettingsOtherThan(Set.of("maxStores"), problems);
    Object max = config.settings().get("maxStores");
    if (max != null
        && problems.check(
            max instanceof Long n && n >= 1,
            "sluice.store.maxStores",
            max,
            "must be a whole number, at least 1")) {
      problems.atMost("sluice.store.maxStores", (Long) max, 100);
    }
    problems.check(
        config.url() == null,
        "sluice.store.url",
        config.maskedUrl(),
        "is only for a postgresql store; this store is scratch");
  }

  @Override
  public Storage open(
      StorageConfig config, StoredValues values, MeterRegistry registry, Clock clock) {
    long max = (Long) config.settings().getOrDefault("maxStores", DEFAULT_MAX_STORES);
    return new ScratchStorage(new MemoryStorage(clock), max);
  }

  /** Memory that counts the names it gave out. */
  private static final class ScratchStorage implements Storage {
    private final MemoryStorage memory;
    private final long max;
    private final Set<String> names = ConcurrentHashMap.newKeySet();

    ScratchStorage(MemoryStorage memory, long max) {
      this.memory = memory;
      this.max = max;
    }

    private void count(String name) {
      names.add(name);
      if (names.size() > max) {
        names.remove(name);
        throw new StoreException("the scratch store gives out at most " + max + " stores");
      }
    }

    @Override
    public ObjectStore objectStore(String name, ObjectStoreOptions options) {
      count("store/" + name);
      return memory.objectStore(name, options);
    }

    @Override
    public DurableQueue queue(String name, QueueOptions options) {
      count("queue/" + name);
      return memory.queue(name, options);
    }

    @Override
    public String describe() {
      return "scratch (" + names.size() + " of at most " + max + " stores)";
    }

    @Override
    public boolean durable() {
      return false;
    }

    @Override
    public void close() {
      memory.close();
    }
  }
}
