package io.sluice.batch;

import io.sluice.core.app.Jmx;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.StorageConfig;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.function.Supplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The batch instances of a store as an MXBean ({@code io.sluice:type=BatchInstances,name=store}):
 * listed, and asked to stop as {@code sluice batch stop} asks, whichever process of the store runs
 * them. Each call reads them through the given {@link BatchInstances}: the application's open
 * storage in {@code sluice run}, or the store opened beside its owner and closed again.
 */
public final class BatchJmx {

  private BatchJmx() {}

  /** The instances of a store. */
  public interface BatchInstancesMXBean {
    /** Up to {@code max} instances, newest first: id, job, state, counts, result. */
    List<String> list(int max);

    /**
     * Asks the process running instance {@code id} to stop it (its blocks in flight finish their
     * step; it stays resumable): what happened, in words; nothing changes for an instance that
     * ended, or is not there.
     */
    String stop(long id);
  }

  /**
   * Registers the bean of the store {@code config} describes; closing the result unregisters it.
   */
  public static AutoCloseable register(
      StorageConfig config, StoredValues values, ClassLoader loader) {
    return register(() -> BatchInstances.open(config, values, loader));
  }

  /**
   * Registers the bean of the instances {@code instances} gives for each call ({@link
   * BatchInstances#of} over the application's open storage in {@code sluice run}); closing the
   * result unregisters it.
   */
  public static AutoCloseable register(Supplier<BatchInstances> instances) {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName name = Jmx.name("BatchInstances", "store");
    try {
      if (server.isRegistered(name)) {
        server.unregisterMBean(name);
      }
      server.registerMBean(new Bean(instances), name);
    } catch (JMException e) {
      throw new IllegalStateException("cannot register the batch instances' MBean", e);
    }
    return () -> {
      if (server.isRegistered(name)) {
        server.unregisterMBean(name);
      }
    };
  }

  private record Bean(Supplier<BatchInstances> open) implements BatchInstancesMXBean {
    @Override
    public List<String> list(int max) {
      try (BatchInstances instances = open.get()) {
        return instances.list(null, Math.max(1, Math.min(max, 1000))).stream()
            .map(
                i ->
                    i.id()
                        + " "
                        + i.job()
                        + " "
                        + i.state()
                        + (i.stopRequested() ? " (stop asked)" : "")
                        + ": loaded "
                        + i.loaded()
                        + ", processed "
                        + i.processed()
                        + ", failed "
                        + i.failed()
                        + (i.result() == null ? "" : "; " + i.result()))
            .toList();
      }
    }

    @Override
    public String stop(long id) {
      try (BatchInstances instances = open.get()) {
        if (instances.requestStop(id)) {
          return "instance "
              + id
              + " asked to stop; the process running it stops it within a second, its blocks in"
              + " flight finishing their step (resume it with sluice batch resume)";
        }
        return instances
            .find(id)
            .map(i -> "instance " + id + " is " + i.state() + ": nothing to stop")
            .orElse("there is no instance " + id + " in " + instances.describe());
      }
    }
  }
}
