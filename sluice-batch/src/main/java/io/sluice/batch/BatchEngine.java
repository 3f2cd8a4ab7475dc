package io.sluice.batch;

import io.sluice.batch.internal.BatchRun;
import io.sluice.batch.internal.BlockStore;
import io.sluice.batch.internal.Definitions;
import io.sluice.batch.internal.InstanceTable;
import io.sluice.batch.internal.MessageInput;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.SluiceException;
import io.sluice.core.app.Application;
import io.sluice.core.store.Require;
import io.sluice.core.store.StorageConfig;
import io.sluice.jdbc.JdbcAccess;
import io.sluice.jobs.JobExecutorConfig;
import io.sluice.jobs.JobStores;
import io.sluice.jobs.LeaseHolder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs batch jobs on an application's storage (embedded SQLite by default, PostgreSQL when
 * configured): starts instances, resumes those a crash or a stop left unfinished, stops them, and
 * lists them. Thread-safe.
 *
 * <pre>{@code
 * BatchEngine engine = BatchEngine.of(application);
 * BatchResult result = engine.run(job).result().join();
 * }</pre>
 */
public final class BatchEngine {

  /** An instance running in this engine. */
  public interface Execution {
    /** The instance's id. */
    long instance();

    /** Its result, when it ends (completed, failed or stopped). */
    CompletableFuture<BatchResult> result();

    /** Asks it to stop: blocks in flight finish their step, nothing more is dispatched. */
    void stop();

    /** Where it is now: counts so far, rate, and the time left when the input's size is known. */
    BatchProgress progress();
  }

  private final Application application;
  private final BlockStore store;
  private final Map<Long, BatchRun> running = new ConcurrentHashMap<>();

  /** The node lease of a process that runs no job executor: held while a run needs it. */
  private final Object leaseLock = new Object();

  private final Supplier<LeaseHolder> given;
  private final Supplier<JobExecutorConfig> node;
  private LeaseHolder own;
  private int leaseUsers;

  private BatchEngine(
      Application application, Supplier<LeaseHolder> given, Supplier<JobExecutorConfig> node) {
    this.application = application;
    this.store = new BlockStore(JdbcAccess.of(application.storage()), application.storedValues());
    this.given = given;
    this.node = node;
  }

  /**
   * The engine of {@code application}'s storage whose runs on a shared store (PostgreSQL) claim
   * their blocks under {@code leases}, the node lease of this process's job executor ({@link
   * io.sluice.jobs.JobExecutor#leaseHolder()}): one lease says whether the process is alive.
   */
  public static BatchEngine of(Application application, LeaseHolder leases) {
    Require.nonNull(leases, "leases");
    return new BatchEngine(
        Require.nonNull(application, "application"), () -> leases, JobExecutorConfig::defaults);
  }

  /**
   * The engine of {@code application}'s storage whose runs on a shared store claim their blocks
   * under the lease {@code shared} gives when it gives one (the job executor's, once it started),
   * else under a lease of the engine's own with the node id, lease and heartbeat of {@code node}
   * ({@code sluice.jobs.*}), registered while a run needs it.
   */
  public static BatchEngine of(
      Application application, Supplier<LeaseHolder> shared, Supplier<JobExecutorConfig> node) {
    return new BatchEngine(
        Require.nonNull(application, "application"),
        Require.nonNull(shared, "shared"),
        Require.nonNull(node, "node"));
  }

  /**
   * The node lease runs on a shared store claim under: the one given, or one of this engine's own,
   * registered while any run needs it.
   */
  private LeaseHolder leases() {
    LeaseHolder shared = given.get();
    if (shared != null) {
      return shared;
    }
    synchronized (leaseLock) {
      if (own == null) {
        JobExecutorConfig settings = node.get();
        own =
            LeaseHolder.start(
                JobStores.open(application.storage(), application.storedValues()),
                settings.nodeId(),
                settings.leaseDuration(),
                settings.heartbeatInterval());
      }
      leaseUsers++;
      return own;
    }
  }

  /**
   * A run that claimed under {@link #leases()} ended: the engine's own lease goes with the last.
   */
  private void leasesDone(LeaseHolder leases) {
    synchronized (leaseLock) {
      if (leases == null || leases != own) {
        return;
      }
      if (--leaseUsers == 0) {
        own.close();
        own = null;
      }
    }
  }

  /**
   * On a shared store, refuses to begin {@code job} beside an instance of it that other nodes run
   * with another definition (steps, block size, output), naming what differs: a node must join with
   * the same configuration, or its blocks would go to the wrong steps.
   */
  private void refuseDifferentLive(BatchJob job) {
    if (!store.shared()) {
      return;
    }
    for (InstanceTable.Instance at : store.list(job.name(), 20)) {
      boolean live = at.state() == BatchState.LOADING || at.state() == BatchState.RUNNING;
      if (!live || running.containsKey(at.id())) {
        continue;
      }
      BlockStore.Shared shared = store.shared(at.id());
      if (!shared.worked()) {
        continue; // nobody works on it now
      }
      if (!at.definition().equals(job.definition())) {
        throw BatchStartRefusedException.join(
            job.name(),
            at.id(),
            "is run by other nodes with another configuration: "
                + Definitions.differences(store.definitionText(at.id()), job.definitionText())
                + "; run every node with the same configuration (or stop that instance first:"
                + " sluice batch stop "
                + at.id()
                + ")");
      }
    }
  }

  /**
   * The engine of {@code application}'s storage, which must be SQLite or PostgreSQL (batch blocks
   * are durable); its stored values write the records, its registry gets the step flows' meters.
   */
  public static BatchEngine of(Application application) {
    return new BatchEngine(
        Require.nonNull(application, "application"), () -> null, JobExecutorConfig::defaults);
  }

  /**
   * Resumes the newest unfinished instance of {@code job} with the same definition (what a rerun of
   * the same configuration after a crash does), or starts a new one when there is none.
   */
  public Execution run(BatchJob job) {
    return run(job, Map.<String, Object>of());
  }

  /**
   * Resumes the newest unfinished instance of {@code job} with the same definition and the same
   * {@code parameters}, or starts a new one with them when there is none. The parameters (Spring
   * Batch's job parameters; a flow's variables when batch-execute starts it) are stored with the
   * instance, and every record's message carries them as variables.
   */
  public Execution run(BatchJob job, Map<String, Object> parameters) {
    readable(job);
    Map<String, Object> given = Map.copyOf(parameters);
    refuseDifferentLive(job);
    Map<String, Object> stored = storable(job, given);
    // Under the store-wide lock of the job: nodes started at the same instant find the one
    // instance the first created, rather than each creating one over the same input.
    long id =
        store.exclusively(
            "sluice batch job " + job.name(),
            instances ->
                instances.list(job.name(), 20).stream()
                    .filter(i -> i.state().resumable() && i.definition().equals(job.definition()))
                    .filter(i -> !running.containsKey(i.id()))
                    .filter(i -> instances.parameters(i.id()).equals(given))
                    .findFirst()
                    .map(InstanceTable.Instance::id)
                    .orElseGet(
                        () ->
                            store.create(
                                job.name(), job.definition(), job.definitionText(), null, stored)));
    return execute(job, id);
  }

  /** Starts a new instance of {@code job}. */
  public Execution start(BatchJob job) {
    return start(job, Map.of());
  }

  /**
   * Starts a new instance of {@code job} with {@code parameters}: stored with it, and every
   * record's message carries them as variables. A value the application's serializer cannot store
   * is a {@link SluiceException} naming it.
   */
  public Execution start(BatchJob job, Map<String, Object> parameters) {
    readable(job);
    return execute(
        job,
        store.create(
            job.name(), job.definition(), job.definitionText(), null, storable(job, parameters)));
  }

  /** {@code parameters}, each checked to be storable: the failure names the one that is not. */
  private Map<String, Object> storable(BatchJob job, Map<String, Object> parameters) {
    for (Map.Entry<String, Object> parameter : parameters.entrySet()) {
      try {
        application.storedValues().write(parameter.getValue());
      } catch (RuntimeException e) {
        throw new SluiceException(
            "Batch job '"
                + job.name()
                + "' cannot start: its parameter '"
                + parameter.getKey()
                + "' (a "
                + (parameter.getValue() == null
                    ? "null"
                    : parameter.getValue().getClass().getName())
                + ") cannot be stored with the instance: "
                + e.getMessage()
                + ". A start from a flow takes the message's variables as parameters: remove that"
                + " variable before batch-execute, or make its value storable",
            e);
      }
    }
    return parameters;
  }

  /**
   * Starts the instance of {@code job} for {@code key}, at most one per job and key in the store
   * (across processes): a new one when the key is new; the one a crash or a stop left unfinished
   * with the same definition, resumed where it stopped; else a {@link BatchStartRefusedException}
   * naming the key and the instance that has it (running, ended, or of other steps).
   */
  public Execution run(BatchJob job, String key) {
    return run(job, key, Map.of());
  }

  /**
   * As {@link #run(BatchJob, String)}; a new instance is started with {@code parameters}, one
   * resumed keeps those it was started with.
   */
  public Execution run(BatchJob job, String key, Map<String, Object> parameters) {
    readable(job);
    Require.nonNull(key, "key");
    Optional<InstanceTable.Instance> same = store.find(job.name(), key);
    if (same.isEmpty()) {
      long created;
      Map<String, Object> stored = storable(job, parameters);
      try {
        created = store.create(job.name(), job.definition(), job.definitionText(), key, stored);
      } catch (RuntimeException e) {
        // Another start created it between the look and the insert: the unique index said no.
        // That start runs it now; resuming it here would run one instance twice.
        InstanceTable.Instance other = store.find(job.name(), key).orElseThrow(() -> e);
        throw new BatchStartRefusedException(
            job.name(), key, other.id(), "is being started by another start with the same key");
      }
      return execute(job, created);
    }
    InstanceTable.Instance at = same.get();
    String why;
    if (running.containsKey(at.id()) || !at.state().resumable()) {
      why = "is " + at.state();
    } else if (!at.definition().equals(job.definition())) {
      why =
          "stopped with other steps or block size (definition "
              + at.definition()
              + ", now "
              + job.definition()
              + ")";
    } else {
      return execute(job, at.id());
    }
    throw new BatchStartRefusedException(job.name(), key, at.id(), why);
  }

  /** Whether this engine's store is shared by nodes (PostgreSQL): its instances can be joined. */
  public boolean shared() {
    return store.shared();
  }

  /**
   * The instances of {@code job} that other nodes run on this shared store and that have work for
   * one more node (blocks no node holds, or output lines no node writes), oldest first; those with
   * another definition are left out and told to {@code differs} (the instance and what differs).
   * Empty on one process's store.
   */
  public List<Long> joinable(BatchJob job, java.util.function.BiConsumer<Long, String> differs) {
    if (!store.shared()) {
      return List.of();
    }
    List<Long> ids = new java.util.ArrayList<>();
    for (InstanceTable.Instance at : store.list(job.name(), 20).reversed()) {
      boolean live = at.state() == BatchState.LOADING || at.state() == BatchState.RUNNING;
      if (!live || running.containsKey(at.id()) || !needsANode(store.shared(at.id()))) {
        continue;
      }
      if (!at.definition().equals(job.definition())) {
        differs.accept(
            at.id(), Definitions.differences(store.definitionText(at.id()), job.definitionText()));
        continue;
      }
      ids.add(at.id());
    }
    return ids;
  }

  /**
   * Whether a shared instance has work for one more node: blocks no node holds, or output lines no
   * node writes.
   */
  private static boolean needsANode(BlockStore.Shared at) {
    return at.claimable() > 0 || (at.lines() > 0 && !at.writing());
  }

  /**
   * Joins instance {@code id} of {@code job}, which other nodes run on this shared store: this node
   * claims its blocks too (a job whose input is the message never loads: only the node the message
   * started it on can). Refused when it is not loading or running, runs here already, or has
   * another definition.
   */
  public Execution join(BatchJob job, long id) {
    InstanceTable.Instance at =
        store.find(id).orElseThrow(() -> refused(id, "there is no batch instance " + id));
    boolean live = at.state() == BatchState.LOADING || at.state() == BatchState.RUNNING;
    if (!store.shared() || !live || !at.job().equals(job.name())) {
      throw refused(
          id,
          "instance "
              + id
              + " of job '"
              + at.job()
              + "' is "
              + at.state()
              + (store.shared() ? "" : " on a store of one process")
              + ": only an instance other nodes run on a shared store can be joined");
    }
    if (!at.definition().equals(job.definition())) {
      throw BatchStartRefusedException.join(
          job.name(),
          id,
          "is run by other nodes with another configuration: "
              + Definitions.differences(store.definitionText(id), job.definitionText()));
    }
    return execute(job, id);
  }

  /** Refuses a job whose records only a start from a flow can give (input: message). */
  private static void readable(BatchJob job) {
    if (job.input() instanceof MessageInput) {
      throw new ConfigurationException(
          ConfigProblem.of(
              "input",
              "message",
              "means batch job '"
                  + job.name()
                  + "' takes its records from the message that starts it: start it from a flow"
                  + " with batch-execute (sluice run), not on its own"));
    }
  }

  /**
   * Resumes instance {@code id} of {@code job} where it stopped; a {@link ConfigurationException}
   * when there is no such unfinished instance of this job, or its steps changed since it began.
   */
  public Execution resume(long id, BatchJob job) {
    return resume(id, job, why -> refused(id, why));
  }

  /**
   * Resumes instance {@code id} as {@link #resume(long, BatchJob)} does, a refusal thrown as {@code
   * refuse} makes it. The instance is read once, checked, then taken ({@link
   * BlockStore#takeForResume}) on what was read: two processes resuming it at once (two nodes'
   * consoles on PostgreSQL) cannot both run it.
   */
  Execution resume(long id, BatchJob job, Function<String, ? extends RuntimeException> refuse) {
    Optional<InstanceTable.Instance> found = store.find(id);
    String why = refusal(found, id, job);
    if (why == null && !store.takeForResume(id, found.get().state(), found.get().updatedAt())) {
      why =
          "instance "
              + id
              + " changed while it was being resumed (another process resumed or stopped it"
              + " meanwhile): look at it again with sluice batch list";
    }
    if (why != null) {
      throw refuse.apply(why);
    }
    return execute(job, id);
  }

  /** Why instance {@code id} of {@code job}, as {@code found}, cannot be resumed here, or null. */
  private String refusal(Optional<InstanceTable.Instance> found, long id, BatchJob job) {
    if (found.isEmpty()) {
      return "there is no batch instance " + id + " in " + where();
    }
    InstanceTable.Instance at = found.get();
    if (!at.job().equals(job.name())) {
      return "instance " + id + " belongs to job '" + at.job() + "', not '" + job.name() + "'";
    }
    if (!at.state().resumable()) {
      return "instance " + id + " is " + at.state() + ": it ended and cannot be resumed";
    }
    if (!at.definition().equals(job.definition())) {
      return "the steps or block size of job '"
          + job.name()
          + "' changed since instance "
          + id
          + " began (definition "
          + at.definition()
          + ", now "
          + job.definition()
          + "); its stored blocks would go to the wrong steps";
    }
    if (running.containsKey(id)) {
      return "instance " + id + " runs already";
    }
    if (job.input() instanceof MessageInput && !at.inputDone()) {
      return "instance "
          + id
          + " stopped while it stored the records of the message that started it; only that"
          + " message can give the rest: start the job again from its flow with the same key";
    }
    return null;
  }

  /**
   * Whether no other process can run an instance of this engine's store: an embedded SQLite store
   * is owned by one process (its lock file), so an instance loading or running there and not here
   * was left so by a process killed mid-run. A PostgreSQL store is shared by every node.
   */
  boolean storeOwned() {
    return JdbcAccess.of(application.storage()).type().equals(StorageConfig.SQLITE);
  }

  private ConfigurationException refused(long id, String why) {
    return new ConfigurationException(ConfigProblem.of("instance", id, why));
  }

  private String where() {
    return application.storage().describe();
  }

  /**
   * Up to {@code max} of the failed records instance {@code instance} kept, from input position
   * {@code fromPosition} on, in input order: as {@link BatchInstances#failures}, read through this
   * engine's storage.
   */
  public List<BatchFailure> failures(long instance, long fromPosition, int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max must be at least 1, was " + max);
    }
    return store.failures(instance, fromPosition, max);
  }

  /** Asks the running instance {@code id} to stop; false when it does not run here. */
  public boolean stop(long id) {
    BatchRun run = running.get(id);
    if (run == null) {
      return false;
    }
    run.stop();
    return true;
  }

  /** Up to {@code max} instances, newest first; of {@code job} only unless it is null. */
  public List<BatchInstance> instances(String job, int max) {
    return store.list(job, max).stream().map(this::info).toList();
  }

  /** Instance {@code id}, if there is one. */
  public Optional<BatchInstance> instance(long id) {
    return store.find(id).map(this::info);
  }

  private BatchInstance info(InstanceTable.Instance at) {
    return BatchInstances.info(at, running.containsKey(at.id()));
  }

  private Execution execute(BatchJob job, long id) {
    LeaseHolder leases = store.shared() ? leases() : null;
    BatchRun run;
    try {
      run = new BatchRun(job, store, id, application, store.parameters(id), leases);
    } catch (RuntimeException e) {
      leasesDone(leases);
      throw e;
    }
    if (running.putIfAbsent(id, run) != null) {
      leasesDone(leases);
      throw refused(id, "instance " + id + " runs already");
    }
    CompletableFuture<BatchResult> result = new CompletableFuture<>();
    Thread.ofPlatform()
        .name("sluice-batch-" + job.name() + "-" + id)
        .start(
            () -> {
              BatchResult done;
              try {
                done = run.run();
              } catch (RuntimeException | Error e) {
                running.remove(id);
                leasesDone(leases);
                result.completeExceptionally(e);
                return;
              }
              // No longer running before anyone hears of the result: a rerun resumes it.
              running.remove(id);
              leasesDone(leases);
              try {
                job.onComplete().accept(done);
              } finally {
                result.complete(done);
              }
            });
    return new Execution() {
      @Override
      public long instance() {
        return id;
      }

      @Override
      public CompletableFuture<BatchResult> result() {
        return result;
      }

      @Override
      public void stop() {
        run.stop();
      }

      @Override
      public BatchProgress progress() {
        return run.progress();
      }
    };
  }
}
