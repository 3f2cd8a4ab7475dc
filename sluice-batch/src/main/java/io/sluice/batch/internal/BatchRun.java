package io.sluice.batch.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.batch.BatchJob;
import io.sluice.batch.BatchNodeWork;
import io.sluice.batch.BatchProgress;
import io.sluice.batch.BatchRecord;
import io.sluice.batch.BatchResult;
import io.sluice.batch.BatchStep;
import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.logging.LogContext;
import io.sluice.jobs.LeaseHolder;
import io.sluice.jobs.spi.NodeLease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Phaser;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of one instance of a batch job: blocks left from an earlier run first, then the rest of
 * the input, each block sent through the steps one after the other, a bounded number of blocks in
 * flight. A block's records go through a step's processors as messages of that step's flow (so
 * {@code auto} and fixed threading profiles schedule them as any flow's); when the last record of
 * the block is through, the block moves to the next step in one commit. A block is never dispatched
 * to a step once the instance is stopping or has passed {@code maxFailedRecords}: it stays at that
 * step in the storage, and a resumed run takes it from there.
 */
public final class BatchRun {

  private static final Logger LOG = LoggerFactory.getLogger(BatchRun.class);

  // Package-private: the run's pieces (BlockLoading, Dispatch, Aggregation, RunSummary) share
  // its state.
  final BatchJob job;
  final BlockStore store;
  final long instance;

  /** What each record's message carries so that the log names the instance (LogContext). */
  final Map<String, Object> logAttributes;

  final Application application;

  /** The parameters the instance was started with: every record's message carries them. */
  final Map<String, Object> parameters;

  private final List<String> flows = new ArrayList<>();
  final Semaphore slots;
  private final Phaser inFlight = new Phaser(1);
  final ExecutorService movers;
  final AtomicLong failed = new AtomicLong();
  final List<BatchRecord> samples = Collections.synchronizedList(new ArrayList<>());
  final AtomicReference<String> error = new AtomicReference<>();
  final Map<Integer, Aggregation> aggregations = new HashMap<>();
  final AtomicInteger active = new AtomicInteger();
  final AtomicInteger groupsInFlight = new AtomicInteger();
  volatile boolean stopping;
  volatile boolean loaderDone;
  boolean inputRead;
  final Counter loadedMeter;
  final Counter processedMeter;
  final Counter failedMeter;

  /** Blocks this node ran as it loaded them, without reading them back. */
  final Counter blocksFromMemory;

  /** Blocks this node read back from the store: claimed, or left by an earlier run. */
  final Counter blocksFromStore;

  final AtomicLong loaded = new AtomicLong();
  final AtomicLong processed = new AtomicLong();
  final AtomicLong processedThisRun = new AtomicLong();
  private volatile long startedNanos = System.nanoTime();
  private volatile long processedAtStart;
  private final String onComplete;
  final UnreadableBlocks unreadable;

  /** The output's writer on one process's store; null on a shared one, or without an output. */
  OutputWriter<Flight> output;

  /** The output of a run on a shared store ({@link SharedOutput}); null otherwise. */
  volatile SharedOutput sharedOutput;

  final Dispatch steps;
  final BlockLoading loading;
  private final StopPolling stopPolling;
  private final RunSummary summary;

  /** The node lease of a run on a shared store; null on one process's store. */
  final LeaseHolder leases;

  /**
   * The lease this run claims blocks under (it ends when the lease is lost); null unless shared.
   */
  volatile NodeLease lease;

  /** The claims of a run on a shared store; null unless shared. */
  final SharedClaims claims;

  /** A shared store out of reach: told once, then summarised, until it answers again. */
  final io.sluice.core.logging.RepeatedFailureLog outage;

  /** Whether a shared run found nothing left to claim now: its aggregators hand partial groups. */
  volatile boolean idle;

  /**
   * On a shared store, the blocks this node has in memory under its lease: claimed, handed over to
   * be stored claimed by it, or in flight. A block the store holds for it and that is not here was
   * claimed or stored by a commit whose answer was lost: {@link SharedClaims} lets it go.
   */
  final Set<Long> mine = ConcurrentHashMap.newKeySet();

  /**
   * A run of {@code instance} of {@code job}, whose step flows run in an application on the same
   * storage as {@code store} ({@code base} gives the storage, stored values and meter registry).
   */
  public BatchRun(BatchJob job, BlockStore store, long instance, Application base) {
    this(job, store, instance, base, Map.of());
  }

  /** A run of {@code instance}, started with {@code parameters}: its records' variables too. */
  public BatchRun(
      BatchJob job,
      BlockStore store,
      long instance,
      Application base,
      Map<String, Object> parameters) {
    this(job, store, instance, base, parameters, null);
  }

  /**
   * A run of {@code instance}, started with {@code parameters}, on a store shared by several nodes
   * when {@code leases} is not null: its blocks are claimed under that node lease, alongside the
   * other nodes running the same instance ({@link SharedClaims}).
   */
  public BatchRun(
      BatchJob job,
      BlockStore store,
      long instance,
      Application base,
      Map<String, Object> parameters,
      LeaseHolder leases) {
    this.job = job;
    this.leases = leases;
    this.store = store;
    this.instance = instance;
    this.logAttributes = Map.of(LogContext.BATCH_INSTANCE, Long.toString(instance));
    this.parameters = parameters;
    Application.Builder app =
        Application.builder()
            .storage(base.storage())
            .storedValues(base.storedValues())
            .meterRegistry(base.meterRegistry())
            // The base's CPU pool: a second one would oversubscribe the cores and register
            // sluice.pool.* again in the same registry (Micrometer warned at every run).
            .cpuPoolOf(base);
    for (int i = 0; i < job.steps().size(); i++) {
      BatchStep step = job.steps().get(i);
      String name = "batch." + job.name() + "." + step.name();
      flows.add(name);
      if (!step.processors().isEmpty()) {
        Flow.Builder flow = Flow.builder(name).strategy(job.strategy());
        step.processors().forEach(flow::processor);
        app.flow(flow.build());
      }
      if (step.aggregator() != null) {
        Flow.Builder sink = Flow.builder(name + ".sink").strategy(job.strategy());
        step.aggregator().sink().forEach(sink::processor);
        app.flow(sink.build());
        aggregations.put(i, new Aggregation(this, name + ".sink", step.aggregator()));
      }
    }
    if (job.onCompleteProcessors().isEmpty()) {
      this.onComplete = null;
    } else {
      this.onComplete = "batch." + job.name() + ".onComplete";
      Flow.Builder flow = Flow.builder(onComplete).strategy(job.strategy());
      job.onCompleteProcessors().forEach(flow::processor);
      app.flow(flow.build());
    }
    this.application = app.build();
    MeterRegistry registry = base.meterRegistry();
    this.loadedMeter = records(registry, "loaded", "Records read from the input and stored");
    this.processedMeter = records(registry, "processed", "Records through every step");
    this.failedMeter = records(registry, "failed", "Records that failed (input or a step)");
    this.blocksFromMemory = blocks(registry, "memory", "Blocks run as loaded, not read back");
    this.blocksFromStore = blocks(registry, "store", "Blocks read back from the store to run");
    this.steps = new Dispatch(this, flows, registry);
    this.loading = new BlockLoading(this);
    this.stopPolling = new StopPolling(store, instance, job.name(), leases != null);
    this.summary = new RunSummary(this);
    this.claims = leases == null ? null : new SharedClaims(this);
    this.outage =
        new io.sluice.core.logging.RepeatedFailureLog(
            LOG,
            "Batch job " + job.name() + " instance " + instance + " reaching the store",
            store.clock());
    this.unreadable = new UnreadableBlocks(job, store, registry);
    this.slots = new Semaphore(blocksInFlight(job));
    this.movers =
        Executors.newFixedThreadPool(
            2,
            Thread.ofPlatform()
                .name("sluice-batch-" + job.name() + "-" + instance + "-", 0)
                .daemon(true)
                .factory());
  }

  /** The job's counter of blocks this node ran, by where their records came {@code from}. */
  private Counter blocks(MeterRegistry registry, String from, String description) {
    return Counter.builder("sluice.batch.blocks")
        .tags("job", job.name(), "from", from)
        .description(description)
        .register(registry);
  }

  /** The job's counter of records that reached {@code outcome}, summed over its runs. */
  private Counter records(MeterRegistry registry, String outcome, String description) {
    return Counter.builder("sluice.batch.records")
        .tags("job", job.name(), "outcome", outcome)
        .description(description)
        .register(registry);
  }

  /**
   * How many blocks are in flight at once: enough records for {@code auto}'s limit to grow into (64
   * blocks, within its maxInFlight), or for a fixed profile, twice its threads' worth plus two, so
   * that a slow record in one block does not idle the others.
   */
  static int blocksInFlight(BatchJob job) {
    int size = job.blockSize();
    return switch (job.strategy()) {
      case ProcessingStrategy.Auto auto -> Math.max(1, Math.min(64, auto.maxInFlight() / size));
      case ProcessingStrategy.Synchronous sync -> {
        ThreadingProfile profile = sync.receiver();
        yield 2 * ((profile.maxThreadsActive() + size - 1) / size) + 2;
      }
      default -> 4;
    };
  }

  /** The instance's totals on a shared store, as last read, and when (System.nanoTime). */
  private volatile Shared totals;

  private record Shared(
      long read, long loaded, long processed, long failed, List<BatchNodeWork> nodes) {}

  /**
   * Where the run is now. On a shared store, where the whole instance is, all nodes together (read
   * at most twice a second), with what each node did; the rate is the instance's since this node's
   * run began.
   */
  public BatchProgress progress() {
    if (leases != null) {
      Shared at = sharedTotals();
      if (at != null) {
        return new BatchProgress(
            at.loaded(),
            at.processed(),
            at.failed(),
            job.input().expectedRecords(),
            Duration.ofNanos(System.nanoTime() - startedNanos),
            Math.max(0, at.processed() - processedAtStart),
            at.nodes());
      }
    }
    return new BatchProgress(
        loaded.get(),
        processed.get(),
        failed.get(),
        job.input().expectedRecords(),
        Duration.ofNanos(System.nanoTime() - startedNanos),
        processedThisRun.get());
  }

  private Shared sharedTotals() {
    long now = System.nanoTime();
    Shared last = totals;
    if (last != null && now - last.read() < 500_000_000L) {
      return last;
    }
    try {
      InstanceTable.Instance at = store.find(instance).orElse(null);
      if (at == null) {
        return last;
      }
      Shared read =
          new Shared(now, at.loaded(), at.processed(), at.failed(), store.nodes(instance));
      totals = read;
      return read;
    } catch (RuntimeException e) {
      // The display shows what it read last; the run meets the storage's failure where it counts.
      return last;
    }
  }

  /** Asks the run to stop: no block is dispatched to a step any more; those in flight finish. */
  public void stop() {
    stopping = true;
  }

  /** Runs to the end (completed, failed or stopped) and returns the result. */
  public BatchResult run() {
    long started = System.nanoTime();
    startedNanos = started;
    application.start();
    try {
      if (claims != null) {
        lease = leases.lease();
        claims.begin();
      } else {
        store.resumed(instance, job.keepFailedRecords());
      }
      InstanceTable.Instance at = store.find(instance).orElseThrow();
      failed.set(at.failed());
      loaded.set(at.loaded());
      processed.set(at.processed());
      processedAtStart = at.processed();
      if (job.output() != null && claims != null) {
        sharedOutput = new SharedOutput(this);
      } else if (job.output() != null) {
        output =
            OutputWriter.open(
                job.output(),
                store,
                instance,
                new Written(),
                "sluice-batch-" + job.name() + "-" + instance + "-output");
      }
      if (claims != null) {
        claims.run();
      } else {
        loading.resume();
        inputRead = at.inputDone();
        if (!inputRead) {
          loading.load(at.inputPosition());
        }
      }
    } catch (RuntimeException e) {
      error.compareAndSet(null, e.getMessage());
      stopping = true;
    }
    if (job.input() instanceof MessageRecords records) {
      records.loadEnded(inputRead, loaded.get());
    }
    try {
      loaderDone = true;
      maybeFinish();
      inFlight.arriveAndAwaitAdvance();
      movers.shutdown();
      closeOutput();
      if (claims != null) {
        claims.end();
      }
      BatchResult result = summary.finish(Duration.ofNanos(System.nanoTime() - started));
      if (summary.ended()) {
        onComplete(result);
      }
      return result;
    } finally {
      movers.shutdown();
      closeOutput();
      application.stop();
    }
  }

  /** Stops the output's writer and cuts its file back to what the commits count. */
  private void closeOutput() {
    if (output != null) {
      output.close();
      output = null;
    }
    if (sharedOutput != null) {
      sharedOutput.close();
      sharedOutput = null;
    }
  }

  /**
   * Counts a block through every step: {@code records} processed, {@code newlyFailed} of them
   * failed for the first time.
   */
  void through(int records, int newlyFailed) {
    failed.addAndGet(newlyFailed);
    failedMeter.increment(newlyFailed);
    processed.addAndGet(records);
    processedThisRun.addAndGet(records);
    processedMeter.increment(records);
  }

  /** What the output does with a run's blocks: counts the written ones, lets the others go. */
  private final class Written implements OutputWriter.Done<Flight> {
    @Override
    public void written(Flight flight, BlockStore.Written block) {
      through(block.records(), block.newlyFailed().size());
      flight.written = true;
      flight.settled = true;
      leave(flight);
    }

    @Override
    public void unwritten(Flight flight) {
      leave(flight);
    }

    @Override
    public void failed(String why) {
      error.compareAndSet(null, why);
      stopping = true;
    }
  }

  /** Sends the result through the job's on-complete processors, if it has any. */
  private void onComplete(BatchResult result) {
    if (onComplete == null) {
      return;
    }
    try {
      application.send(onComplete, Message.of(result).withVariables(parameters)).join();
    } catch (RuntimeException e) {
      // The instance ended as the result says whatever its report does: the failure is told, not
      // turned into the job's.
      LOG.warn(
          "Batch job {} instance {}: its on-complete processors failed: {}",
          job.name(),
          instance,
          describe(e));
    }
  }

  /**
   * A shared store did not answer ({@code e}): told once, then summarised; the run waits for it
   * (its claims pause, what it held stays stored).
   */
  void unreachable(Throwable e) {
    outage.failed(
        "Batch job {} instance {}: node {} cannot reach the store, or the store broke a write off"
            + " ({}); it claims nothing, its blocks stay stored at their step, and it goes on when"
            + " the store answers",
        job.name(),
        instance,
        lease,
        describe(e));
  }

  /** The run cannot go on: it fails with {@code e}'s description, nothing more is dispatched. */
  void fail(Throwable e) {
    error.compareAndSet(null, describe(e));
    stopping = true;
  }

  boolean mayDispatch() {
    return !stopping && !limitPassed() && holdsLease() && !stopAsked();
  }

  /**
   * Whether the run may commit and hand over what it claimed: always on one process's store; on a
   * shared one, while the lease it claimed under holds.
   */
  boolean holdsLease() {
    return leases == null || leases.holds(lease);
  }

  /**
   * Whether a stop was asked through the store (by another process: {@code sluice batch stop}),
   * looked up at most every 250 ms ({@link StopPolling}); it then stops as {@link #stop()} does.
   */
  private boolean stopAsked() {
    if (!stopPolling.due()) {
      return false;
    }
    if (stopPolling.requested()) {
      stopping = true;
    }
    return stopping;
  }

  boolean limitPassed() {
    return job.maxFailedRecords() != BatchJob.UNLIMITED && failed.get() > job.maxFailedRecords();
  }

  /** Takes a place for {@code block} (waiting for one) and sends it to its step. */
  void dispatch(BlockStore.Block block) {
    try {
      slots.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopping = true;
      return;
    }
    dispatchHolding(block);
  }

  /** Sends {@code block} to its step on a place in flight taken already. */
  void dispatchHolding(BlockStore.Block block) {
    inFlight.register();
    active.incrementAndGet();
    if (output != null) {
      output.expect(block.number());
    }
    Flight flight = new Flight(block);
    // On a mover, not here: a CPU-light step runs on the thread that sends to it, and the loader
    // should be reading the next blocks meanwhile.
    movers.execute(() -> steps.runStep(flight));
  }

  /**
   * When nothing moves any more (the input is read, no block is at work, no group at the sink):
   * hands the aggregators' last partial groups to their sinks, first step first; or, when the run
   * stops, lets the parked blocks go unmoved (a resumed run takes them from their step, and hands
   * their records to the sink again: at least once).
   */
  synchronized void maybeFinish() {
    if (!(loaderDone || idle) || active.get() > 0 || groupsInFlight.get() > 0) {
      return;
    }
    if (!loaderDone && !mayDispatch()) {
      // Idle, but stopping: the loop ends, and then lets the parked blocks go.
      return;
    }
    for (int step = 0; step < job.steps().size(); step++) {
      Aggregation aggregation = aggregations.get(step);
      if (aggregation == null) {
        continue;
      }
      List<Aggregation.Parked> left;
      synchronized (aggregation) {
        if (aggregation.parked.isEmpty()) {
          continue;
        }
        left = List.copyOf(aggregation.parked);
        if (mayDispatch()) {
          left = List.of();
        } else {
          aggregation.parked.clear();
          aggregation.waiting.clear();
        }
      }
      if (left.isEmpty()) {
        aggregation.group(true);
        return;
      }
      left.forEach(parked -> abandon(parked.flight));
    }
  }

  /**
   * Lets every block parked at an aggregator go unmoved, its records in no group: what a node does
   * with what it held under a lease it lost (the blocks are another node's now).
   */
  void abandonParked() {
    for (Aggregation aggregation : aggregations.values()) {
      List<Aggregation.Parked> left;
      synchronized (aggregation) {
        left = List.copyOf(aggregation.parked);
        aggregation.parked.clear();
        aggregation.waiting.clear();
      }
      left.forEach(parked -> abandon(parked.flight));
    }
  }

  private void abandon(Flight flight) {
    mine.remove(flight.block.number());
    if (claims != null && !flight.settled) {
      flight.settled = true;
      claims.drop(flight.block.number());
    }
    if (output != null && !flight.written) {
      // It leaves without its lines: the output writes nothing after it in this run.
      output.gone(flight.block.number());
    }
    if (flight.holdsSlot) {
      flight.holdsSlot = false;
      slots.release();
    }
    inFlight.arriveAndDeregister();
  }

  void leave(Flight flight) {
    active.decrementAndGet();
    abandon(flight);
    maybeFinish();
  }

  void sample(BatchRecord record) {
    synchronized (samples) {
      if (samples.size() < BatchResult.SAMPLES) {
        samples.add(record);
      }
    }
  }

  static Throwable unwrap(Throwable e) {
    Throwable cause = e;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  static String describe(Throwable e) {
    Throwable cause = unwrap(e);
    return cause.getClass().getSimpleName()
        + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
  }
}
