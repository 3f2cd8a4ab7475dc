package io.sluice.core.app;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.ConfigProblems;
import io.sluice.core.ConfigurationException;
import io.sluice.core.Message;
import io.sluice.core.flow.Flow;
import io.sluice.core.health.HealthCheck;
import io.sluice.core.health.HealthContributor;
import io.sluice.core.internal.ApplicationRuntime;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.TimerService;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.Storages;
import io.sluice.core.store.StoreException;
import io.sluice.core.vm.DurableQueueListener;
import io.sluice.core.vm.queue.VmQueues;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Sluice application: a set of flows and what they share (clock, timer, metrics, VM queues).
 * Build one with {@link #builder()}, {@link #start()} it, and {@link #stop()} it gracefully. At
 * start it logs its effective serialization configuration once ({@link StoredValues#describe()}).
 */
public final class Application implements AutoCloseable {

  /** How long a graceful stop waits for messages in flight unless set: 30 s. */
  public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

  /** The capacity of each VM queue unless set: a thousand messages. */
  public static final int DEFAULT_VM_QUEUE_CAPACITY = 1000;

  /** The largest capacity of a VM queue: a million messages held in memory. */
  public static final int MAX_VM_QUEUE_CAPACITY = 1_000_000;

  private static final Logger LOG = LoggerFactory.getLogger(Application.class);

  private final List<Flow> flows;
  private final Duration shutdownTimeout;
  private final MeterRegistry meterRegistry;
  private final VmQueues vmQueues;
  private final ApplicationRuntime runtime;
  private final Clock clock;
  private final StoredValues storedValues;
  private final StorageConfig storageConfig;
  private final Storage givenStorage;
  private final Object storageLock = new Object();
  private Storage openedStorage;
  private boolean storageClosed;
  private boolean started;
  private boolean stopped;

  private Application(Builder b, StoredValues storedValues) {
    this.storedValues = storedValues;
    this.flows = List.copyOf(b.flows);
    this.shutdownTimeout = b.shutdownTimeout;
    this.meterRegistry = b.meterRegistry;
    this.vmQueues = new VmQueues(b.vmQueueCapacity, meterRegistry);
    this.storageConfig = b.storageConfig;
    this.givenStorage = b.storage;
    this.clock = b.clock;
    this.runtime =
        new ApplicationRuntime(
            flows,
            b.clock,
            b.timer,
            meterRegistry,
            vmQueues,
            this::storage,
            storedValues,
            b.host == null ? null : b.host.runtime);
  }

  /** A builder with the defaults: system clock and timer, a simple meter registry. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts every flow; fails naming the flow that could not start, having stopped the flows it
   * started and closed the storage it opened (the application cannot start again).
   */
  public synchronized void start() {
    if (started) {
      throw new IllegalStateException("the application was already started");
    }
    if (stopped) {
      throw new IllegalStateException("the application was stopped; build a new one to start");
    }
    started = true;
    LOG.info("{}", storedValues.describe());
    try {
      runtime.start();
    } catch (RuntimeException e) {
      // The runtime stopped what it had started; the storage a flow opened on the way is closed
      // here, as stop() would have, so a failed start leaves nothing running.
      stopped = true;
      closeOpenedStorage();
      throw e;
    }
    synchronized (storageLock) {
      if (givenStorage != null) {
        LOG.info("store: {}", givenStorage.describe());
      } else if (openedStorage == null) {
        LOG.info("store: {} (opened on first use; nothing uses it yet)", storageConfig);
      }
    }
  }

  /**
   * Stops gracefully: sources stop, messages in flight get the shutdown timeout to finish. Returns
   * true when every message finished in time. Calling it again does nothing. An application never
   * started has nothing in flight, but lets go of what its use made all the same: the CPU pool a
   * batch run borrowed, the storage a component opened.
   */
  public synchronized boolean stop() {
    if (stopped) {
      return true;
    }
    stopped = true;
    boolean drained = started ? runtime.stop(shutdownTimeout) : runtime.release();
    closeOpenedStorage();
    return drained;
  }

  private void closeOpenedStorage() {
    synchronized (storageLock) {
      storageClosed = true;
      if (openedStorage != null) {
        openedStorage.close();
      }
    }
  }

  /** Same as {@link #stop()}. */
  @Override
  public void close() {
    stop();
  }

  /**
   * The application's storage (object stores, durable queues): the one given to the builder, or the
   * one its {@link StorageConfig} describes, opened on the first call and logged once with any
   * password masked. Fails with a {@link StoreException} when it cannot be opened.
   */
  public Storage storage() {
    if (givenStorage != null) {
      return givenStorage;
    }
    // Its own lock: flows reach for the storage while stop() holds the application's.
    synchronized (storageLock) {
      return openStorage();
    }
  }

  private Storage openStorage() {
    if (openedStorage == null) {
      if (storageClosed) {
        throw new IllegalStateException("the application was stopped; its storage is closed");
      }
      openedStorage =
          Storages.open(
              storageConfig,
              storedValues,
              meterRegistry,
              clock,
              Thread.currentThread().getContextClassLoader() != null
                  ? Thread.currentThread().getContextClassLoader()
                  : Application.class.getClassLoader());
      LOG.info("store: {}", openedStorage.describe());
    }
    return openedStorage;
  }

  /**
   * What {@code /health/ready} asks this application: its store, with a real write (when it uses
   * one: a store nothing opened is not opened for a probe), and every flow's source that can say
   * whether it works (an HTTP listener bound, a durable queue's consumers alive, a poll that
   * reaches its database).
   */
  public List<HealthContributor> healthContributors() {
    List<HealthContributor> all = new ArrayList<>();
    all.add(HealthContributor.of("store", this::storeHealth));
    for (Flow flow : flows) {
      if (flow.source() instanceof HealthContributor source) {
        all.add(
            HealthContributor.of(
                "flow " + flow.name() + ": " + source.component(),
                () ->
                    source.health().stream()
                        .map(
                            c ->
                                new HealthCheck(
                                    "flow " + flow.name() + ": " + c.component(),
                                    c.up(),
                                    c.detail()))
                        .toList()));
      }
    }
    return all;
  }

  private List<HealthCheck> storeHealth() {
    Storage storage;
    synchronized (storageLock) {
      storage = givenStorage != null ? givenStorage : openedStorage;
    }
    if (storage == null) {
      return List.of(HealthCheck.up("store", "not used by this application yet"));
    }
    List<HealthCheck> checks = new ArrayList<>();
    long start = System.nanoTime();
    try {
      storage
          .objectStore(HEALTH_STORE, ObjectStoreOptions.DEFAULTS)
          .put("probe", clock.instant().toString());
      checks.add(
          HealthCheck.up(
              "store",
              storage.describe()
                  + ": a write committed in "
                  + (System.nanoTime() - start) / 1_000_000
                  + " ms"));
    } catch (RuntimeException e) {
      checks.add(
          HealthCheck.down("store", storage.describe() + ": a write failed: " + e.getMessage()));
    }
    if (storage instanceof HealthContributor more) {
      checks.addAll(more.health());
    }
    return checks;
  }

  /** The object store the store's health check writes to: one entry, overwritten. */
  private static final String HEALTH_STORE = "sluice.health";

  /** Where the application keeps its stores and queues, as configured. */
  public StorageConfig storageConfig() {
    return storageConfig;
  }

  /**
   * Stops the flow {@code name} alone, as an operator does: its source takes no message (files
   * stay, a listener refuses, a queue's messages wait), a flow without a source refuses what is
   * sent; messages in flight go on. False when it is stopped already or the application is
   * stopping. Fails naming the flows there are when there is no such flow.
   */
  public boolean stopFlow(String name) {
    return runtime.pauseFlow(name);
  }

  /** Starts again a flow {@link #stopFlow} stopped; false when it was not stopped. */
  public boolean startFlow(String name) {
    return runtime.resumeFlow(name);
  }

  /** Whether an operator stopped the flow {@code name}. */
  public boolean flowStopped(String name) {
    return runtime.flowPaused(name);
  }

  /** The durable queues the flows take from now, with their listeners, by flow. */
  public Map<String, List<DurableQueueListener>> durableListeners() {
    return runtime.durableListeners();
  }

  /** Messages the flow {@code name} holds now. */
  public int inFlight(String name) {
    return runtime.inFlight(name);
  }

  /** Hands a message to a flow, as its source would; for flows without a source and for tests. */
  public CompletableFuture<Message> send(String flow, Message message) {
    return runtime.send(flow, message);
  }

  /**
   * A context on this application's services (clock, timer, meters, VM queues, storage) named
   * {@code name}, for a source run outside its flows, as a batch job's input is; it runs no
   * processors detached.
   */
  public FlowContext context(String name) {
    return runtime.context(name);
  }

  /** The flows, as configured. */
  public List<Flow> flows() {
    return flows;
  }

  /** Where the application's metrics are. */
  public MeterRegistry meterRegistry() {
    return meterRegistry;
  }

  /** The application's in-memory VM queues. */
  public VmQueues vmQueues() {
    return vmQueues;
  }

  /** How long a graceful stop waits for messages in flight. */
  public Duration shutdownTimeout() {
    return shutdownTimeout;
  }

  /**
   * How stores and queues turn values into records: writing with the default named serializer, or
   * the one a store names ({@link StoredValues#named(String)}); reading whatever wrote them.
   */
  public StoredValues storedValues() {
    return storedValues;
  }

  /** Builds an {@link Application}. */
  public static final class Builder {
    private final List<Flow> flows = new ArrayList<>();
    private Clock clock = Clock.systemDefaultZone();
    private TimerService timer;
    private MeterRegistry meterRegistry = new SimpleMeterRegistry();
    private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;
    private int vmQueueCapacity = DEFAULT_VM_QUEUE_CAPACITY;
    private SerializationConfig serialization;
    private StoredValues storedValues;
    private StorageConfig storageConfig = StorageConfig.defaults();
    private Storage storage;
    private Application host;

    private Builder() {}

    /**
     * Runs the flows' CPU_INTENSIVE work on {@code host}'s shared CPU pool rather than on a pool of
     * this application's own: for flows built beside an application, as a batch run's steps are.
     * One pool serves the process's cores, and its meters ({@code sluice.pool.*}) are registered
     * once. The pool stays {@code host}'s: stopping this application leaves it running.
     */
    public Builder cpuPoolOf(Application value) {
      this.host = value;
      return this;
    }

    /**
     * Where stores and queues live ({@link StorageConfig#defaults()}, embedded SQLite under {@code
     * data}, unless set); opened on first use and closed when the application stops.
     */
    public Builder storage(StorageConfig value) {
      this.storageConfig = value;
      return this;
    }

    /**
     * A storage already open, used instead of one made from a {@link StorageConfig}; the caller
     * closes it after the application stops.
     */
    public Builder storage(Storage value) {
      this.storage = value;
      return this;
    }

    /**
     * The serialization settings ({@link SerializationConfig#defaults()} unless set); the stored
     * values are made from them, with the serializers and codecs on the class path, at {@link
     * #build()}.
     */
    public Builder serialization(SerializationConfig value) {
      this.serialization = value;
      return this;
    }

    /**
     * Stored values already made (with added factories, or discovered by another class loader),
     * instead of {@link #serialization}.
     */
    public Builder storedValues(StoredValues value) {
      this.storedValues = value;
      return this;
    }

    /** Adds a flow. */
    public Builder flow(Flow flow) {
      flows.add(flow);
      return this;
    }

    /** The clock (the system's unless set). */
    public Builder clock(Clock value) {
      this.clock = value;
      return this;
    }

    /** The timer (a real one on the clock unless set); tests pass the test kit's manual one. */
    public Builder timer(TimerService value) {
      this.timer = value;
      return this;
    }

    /** Where metrics go (a simple in-memory registry unless set). */
    public Builder meterRegistry(MeterRegistry value) {
      this.meterRegistry = value;
      return this;
    }

    /** How long a graceful stop waits for messages in flight (30 s unless set). */
    public Builder shutdownTimeout(Duration value) {
      this.shutdownTimeout = value;
      return this;
    }

    /** The capacity of each VM queue (1000 unless set; at most a million). */
    public Builder vmQueueCapacity(int value) {
      this.vmQueueCapacity = value;
      return this;
    }

    /** The application; fails listing every broken rule. */
    public Application build() {
      ConfigProblems problems = new ConfigProblems();
      Set<String> names = new HashSet<>();
      for (int i = 0; i < flows.size(); i++) {
        Flow flow = flows.get(i);
        problems.check(
            names.add(flow.name()),
            "flows[" + i + "].name",
            flow.name(),
            "must be unique; another flow has this name");
      }
      problems.check(clock != null, "clock", null, "is required");
      problems.check(meterRegistry != null, "meterRegistry", null, "is required");
      if (problems.check(
          shutdownTimeout != null && !shutdownTimeout.isNegative(),
          "shutdownTimeout",
          shutdownTimeout,
          "must be zero or a positive duration")) {
        problems.atMost("shutdownTimeout", shutdownTimeout, ConfigProblems.MAX_DURATION);
      }
      if (problems.check(
          vmQueueCapacity >= 1, "vmQueueCapacity", vmQueueCapacity, "must be at least 1")) {
        problems.atMost("vmQueueCapacity", vmQueueCapacity, MAX_VM_QUEUE_CAPACITY);
      }
      problems.check(storageConfig != null, "storage", null, "is required");
      problems.check(
          serialization == null || storedValues == null,
          "serialization",
          serialization,
          "is set together with storedValues(...); set one of them");
      StoredValues stored = storedValues;
      if (stored == null) {
        try {
          stored =
              StoredValues.create(
                  serialization != null ? serialization : SerializationConfig.defaults());
        } catch (ConfigurationException e) {
          e.problems().forEach(problems::add);
        }
      }
      problems.throwIfAny();
      return new Application(this, stored);
    }
  }
}
