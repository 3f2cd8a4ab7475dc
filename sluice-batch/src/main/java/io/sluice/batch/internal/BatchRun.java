package io.sluice.batch.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.batch.Aggregator;
import io.sluice.batch.BatchJob;
import io.sluice.batch.BatchProgress;
import io.sluice.batch.BatchRecord;
import io.sluice.batch.BatchResult;
import io.sluice.batch.BatchState;
import io.sluice.batch.BatchStep;
import io.sluice.batch.StepCounts;
import io.sluice.core.Application;
import io.sluice.core.Flow;
import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import io.sluice.core.ThrottledException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Phaser;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
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

  private static final int PAGE = 256;

  /** About how many records the loader reads before one commit stores their blocks. */
  private static final int RECORDS_PER_LOAD = 1_000;

  /** How many times a throttled call of a record is made again before the record fails. */
  static final int THROTTLED_RETRIES = 10;

  private static final long FIRST_THROTTLED_PAUSE_MILLIS = 20;
  private static final long MAX_THROTTLED_PAUSE_MILLIS = 2_000;

  /** How often a run looks in the store for a stop asked by another process. */
  private static final long STOP_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

  private final BatchJob job;
  private final BlockStore store;
  private final long instance;

  /** The parameters the instance was started with: every record's message carries them. */
  private final Map<String, Object> parameters;

  private final Application application;
  private final List<String> flows = new ArrayList<>();
  private final Semaphore slots;
  private final Phaser inFlight = new Phaser(1);
  private final ExecutorService movers;
  private final AtomicLong failed = new AtomicLong();
  private final List<BatchRecord> samples = Collections.synchronizedList(new ArrayList<>());
  private final AtomicReference<String> error = new AtomicReference<>();
  private final Map<Integer, Aggregation> aggregations = new HashMap<>();
  private final AtomicInteger active = new AtomicInteger();
  private final AtomicInteger groupsInFlight = new AtomicInteger();
  private volatile boolean stopping;
  private volatile boolean loaderDone;
  private boolean inputRead;
  private final Counter loadedMeter;
  private final Counter processedMeter;
  private final Counter failedMeter;
  private final Counter retriedMeter;
  private final AtomicLong loaded = new AtomicLong();
  private final AtomicLong processed = new AtomicLong();
  private final AtomicLong processedThisRun = new AtomicLong();
  private volatile long startedNanos = System.nanoTime();
  private final AtomicLong stopPolled = new AtomicLong(System.nanoTime());
  private final String onComplete;
  private final UnreadableBlocks unreadable;
  private OutputWriter<Flight> output;

  /** A block in flight, and whether it holds one of the places ({@link #slots}). */
  private static final class Flight {
    BlockStore.Block block;
    boolean holdsSlot = true;
    boolean written;

    Flight(BlockStore.Block block) {
      this.block = block;
    }
  }

  /**
   * A block whose step is done but whose records wait for the step's aggregator: it moves on once
   * the sink took every one of them.
   */
  private static final class Parked {
    final Flight flight;
    final int step;
    final List<BatchRecord> after;
    long processed;
    long failed;
    final long skipped;
    long newlyFailed;
    int waiting;

    Parked(Flight flight, int step, List<BatchRecord> after, StepCounts counts, long newlyFailed) {
      this.flight = flight;
      this.step = step;
      this.after = after;
      this.processed = counts.processed();
      this.failed = counts.failed();
      this.skipped = counts.skipped();
      this.newlyFailed = newlyFailed;
    }
  }

  /** One record of a parked block, waiting for a group. */
  private record Item(Parked parked, int index) {}

  /** A step's aggregator: the records waiting for a group, and the blocks they belong to. */
  private static final class Aggregation {
    final String flow;
    final Aggregator aggregator;
    final ArrayDeque<Item> waiting = new ArrayDeque<>();
    final Set<Parked> parked = new LinkedHashSet<>();

    Aggregation(String flow, Aggregator aggregator) {
      this.flow = flow;
      this.aggregator = aggregator;
    }
  }

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
    this.job = job;
    this.store = store;
    this.instance = instance;
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
        aggregations.put(i, new Aggregation(name + ".sink", step.aggregator()));
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
    this.retriedMeter =
        Counter.builder("sluice.batch.throttled.retries")
            .tag("job", job.name())
            .description("Calls a downstream throttled, made again after a pause")
            .register(registry);
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

  /** Where the run is now. */
  public BatchProgress progress() {
    return new BatchProgress(
        loaded.get(),
        processed.get(),
        failed.get(),
        job.input().expectedRecords(),
        Duration.ofNanos(System.nanoTime() - startedNanos),
        processedThisRun.get());
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
      store.resumed(instance);
      InstanceTable.Instance at = store.find(instance).orElseThrow();
      failed.set(at.failed());
      loaded.set(at.loaded());
      processed.set(at.processed());
      if (job.output() != null) {
        output =
            OutputWriter.open(
                job.output(),
                store,
                instance,
                new Written(),
                "sluice-batch-" + job.name() + "-" + instance + "-output");
      }
      resumeBlocks();
      inputRead = at.inputDone();
      if (!inputRead) {
        load(at.inputPosition());
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
      BatchResult result = finish(Duration.ofNanos(System.nanoTime() - started));
      onComplete(result);
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
  }

  /** What the output does with a run's blocks: counts the written ones, lets the others go. */
  private final class Written implements OutputWriter.Done<Flight> {
    @Override
    public void written(Flight flight, BlockStore.Written block) {
      failed.addAndGet(block.newlyFailed());
      failedMeter.increment(block.newlyFailed());
      int records = block.records();
      processed.addAndGet(records);
      processedThisRun.addAndGet(records);
      processedMeter.increment(records);
      flight.written = true;
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

  private void resumeBlocks() {
    long after = -1;
    for (List<BlockStore.Block> page = store.pending(instance, after, PAGE);
        !page.isEmpty() && mayDispatch();
        page = store.pending(instance, after, PAGE)) {
      for (BlockStore.Block block : page) {
        if (block.unreadable() == null) {
          dispatch(block);
        } else if (mayDispatch()) {
          dropUnreadable(block);
        }
        after = block.number();
      }
    }
  }

  /** Counts the records of a block that cannot be read as failed, through every step. */
  private void dropUnreadable(BlockStore.Block block) {
    UnreadableBlocks.Dropped dropped = unreadable.drop(block);
    if (dropped != null) {
      long records = dropped.records();
      failed.addAndGet(records);
      failedMeter.increment(records);
      processed.addAndGet(records);
      processedThisRun.addAndGet(records);
      processedMeter.increment(records);
      sample(dropped.sample());
    }
  }

  private void load(long position) {
    int perCommit = Math.max(1, Math.min(16, RECORDS_PER_LOAD / job.blockSize()));
    SourceInput source = job.input() instanceof SourceInput s ? s : null;
    if (source != null) {
      source.bind(application.context("batch." + job.name() + ".input"));
    }
    try (var reader = job.input().open(position)) {
      long next = position;
      boolean end = false;
      try (LoadCommitter committer =
          source != null
              ? LoadCommitter.inline(this::storeAndDispatch, reader::stored)
              : LoadCommitter.behind(
                  this::storeAndDispatch,
                  "sluice-batch-" + job.name() + "-" + instance + "-load")) {
        while (!end && mayDispatch()) {
          List<BlockStore.Loaded> group = new ArrayList<>(perCommit);
          while (group.size() < perCommit) {
            List<BatchRecord> records = new ArrayList<>(job.blockSize());
            long unreadable = 0;
            for (BatchRecord r = reader.next(); r != null; r = reader.next()) {
              records.add(r);
              if (r.failed()) {
                unreadable++;
                sample(r);
              }
              if (records.size() == job.blockSize()) {
                break;
              }
            }
            boolean partial = records.size() < job.blockSize();
            if (!records.isEmpty()) {
              group.add(new BlockStore.Loaded(next, records, unreadable));
              next = reader.position();
            }
            if (partial) {
              // The input ended, or has nothing now (a source waiting for its records to be
              // acknowledged): the blocks so far are stored as they are.
              end = reader.ended();
              break;
            }
          }
          if (!group.isEmpty()) {
            committer.submit(new LoadCommitter.Group(group, next));
          }
        }
      }
      if (end) {
        store.inputDone(instance);
        inputRead = true;
      }
    }
  }

  /** Stores groups of loaded blocks in one commit, then dispatches them in order. */
  private void storeAndDispatch(List<LoadCommitter.Group> groups) {
    List<BlockStore.Loaded> blocks = new ArrayList<>();
    groups.forEach(g -> blocks.addAll(g.blocks()));
    List<Boolean> stored = store.load(instance, blocks, groups.getLast().next());
    for (int i = 0; i < blocks.size(); i++) {
      BlockStore.Loaded block = blocks.get(i);
      if (stored.get(i)) {
        loaded.addAndGet(block.records().size());
        failed.addAndGet(block.failed());
        loadedMeter.increment(block.records().size());
        failedMeter.increment(block.failed());
      }
    }
    for (BlockStore.Loaded block : blocks) {
      dispatch(new BlockStore.Block(instance, block.number(), 0, block.records()));
    }
  }

  private boolean mayDispatch() {
    return !stopping && !limitPassed() && !stopAsked();
  }

  /**
   * Whether a stop was asked through the store (by another process: {@code sluice batch stop}),
   * looked up at most every {@link #STOP_POLL_NANOS}; it then stops as {@link #stop()} does.
   */
  private boolean stopAsked() {
    long now = System.nanoTime();
    long last = stopPolled.get();
    if (now - last < STOP_POLL_NANOS || !stopPolled.compareAndSet(last, now)) {
      return false;
    }
    if (store.stopRequested(instance)) {
      LOG.info(
          "Batch job {} instance {}: stop asked; blocks in flight finish", job.name(), instance);
      stopping = true;
    }
    return stopping;
  }

  private boolean limitPassed() {
    return job.maxFailedRecords() != BatchJob.UNLIMITED && failed.get() > job.maxFailedRecords();
  }

  /** Takes a place for {@code block} (waiting for one) and sends it to its step. */
  private void dispatch(BlockStore.Block block) {
    try {
      slots.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopping = true;
      return;
    }
    inFlight.register();
    active.incrementAndGet();
    if (output != null) {
      output.expect(block.number());
    }
    Flight flight = new Flight(block);
    // On a mover, not here: a CPU-light step runs on the thread that sends to it, and the loader
    // should be reading the next blocks meanwhile.
    movers.execute(() -> runStep(flight));
  }

  private void runStep(Flight flight) {
    BlockStore.Block block = flight.block;
    if (!mayDispatch() || block.step() >= job.steps().size()) {
      leave(flight);
      return;
    }
    BatchStep step = job.steps().get(block.step());
    List<BatchRecord> records = block.records();
    List<CompletableFuture<Message>> sent = new ArrayList<>(records.size());
    boolean[] taken = new boolean[records.size()];
    String[] refused = new String[records.size()];
    for (int i = 0; i < records.size(); i++) {
      BatchRecord record = records.get(i);
      try {
        taken[i] = step.takes(record, parameters);
      } catch (RuntimeException e) {
        refused[i] = "the accept expression failed: " + describe(e);
        taken[i] = true;
      }
      if (taken[i] && refused[i] == null && !step.processors().isEmpty()) {
        sent.add(send(flows.get(block.step()), record, 0));
      } else {
        sent.add(null);
      }
    }
    CompletableFuture.allOf(sent.stream().filter(f -> f != null).toArray(CompletableFuture[]::new))
        .handleAsync(
            (ignored, failure) -> {
              stepDone(flight, step, taken, refused, sent);
              return null;
            },
            movers)
        .exceptionally(e -> failed(flight, e));
  }

  /**
   * Sends {@code record} through a step's flow; a call the downstream throttled (HTTP 429 or 503:
   * it refused the call, so nothing was done) is sent again after a growing, jittered pause, up to
   * {@link #THROTTLED_RETRIES} times, while {@code auto} lowers its limit. Only then does the
   * record fail.
   */
  private CompletableFuture<Message> send(String flow, BatchRecord record, int retries) {
    return application
        .send(flow, BatchStep.message(record, parameters))
        .exceptionallyCompose(
            e -> {
              if (!(unwrap(e) instanceof ThrottledException) || retries >= THROTTLED_RETRIES) {
                return CompletableFuture.failedFuture(e);
              }
              retriedMeter.increment();
              long pause =
                  Math.min(MAX_THROTTLED_PAUSE_MILLIS, FIRST_THROTTLED_PAUSE_MILLIS << retries);
              Executor later =
                  CompletableFuture.delayedExecutor(
                      ThreadLocalRandom.current().nextLong(pause / 2, pause + 1),
                      TimeUnit.MILLISECONDS);
              return CompletableFuture.supplyAsync(() -> retries + 1, later)
                  .thenCompose(next -> send(flow, record, next));
            });
  }

  /** The run cannot go on (the storage failed): nothing more is dispatched. */
  private Void failed(Flight flight, Throwable e) {
    error.compareAndSet(null, describe(e));
    stopping = true;
    leave(flight);
    return null;
  }

  /** The block's records are through the step's processors: on to the aggregator, or commit. */
  private void stepDone(
      Flight flight,
      BatchStep step,
      boolean[] taken,
      String[] refused,
      List<CompletableFuture<Message>> sent) {
    List<BatchRecord> before = flight.block.records();
    List<BatchRecord> after = new ArrayList<>(before.size());
    List<Integer> aggregated = new ArrayList<>();
    long processed = 0;
    long stepFailed = 0;
    long newlyFailed = 0;
    for (int i = 0; i < before.size(); i++) {
      BatchRecord record = before.get(i);
      if (!taken[i]) {
        after.add(record);
        continue;
      }
      processed++;
      String why = refused[i];
      BatchRecord result = record;
      if (why == null && sent.get(i) != null) {
        try {
          result = record.withPayload(sent.get(i).join().payload());
        } catch (CompletionException e) {
          why = describe(e);
        }
      }
      if (why != null) {
        stepFailed++;
        if (!record.failed()) {
          newlyFailed++;
        }
        result = record.failedAt(step.name(), why);
        sample(result);
      } else {
        aggregated.add(i);
      }
      after.add(result);
    }
    StepCounts counts = new StepCounts(processed, stepFailed, before.size() - processed);
    int index = flight.block.step();
    Aggregation aggregation = aggregations.get(index);
    if (aggregation == null || aggregated.isEmpty()) {
      commit(flight, after, counts, newlyFailed);
      return;
    }
    park(flight, aggregation, new Parked(flight, index, after, counts, newlyFailed), aggregated);
  }

  /** Commits the block's step and sends it on to the next step, or out. */
  private void commit(Flight flight, List<BatchRecord> after, StepCounts counts, long newlyFailed) {
    BlockStore.Block block = flight.block;
    boolean last = block.step() == job.steps().size() - 1;
    if (last && output != null) {
      toOutput(flight, after, counts, newlyFailed);
      return;
    }
    if (store.advance(instance, block.number(), block.step(), last, after, counts, newlyFailed)) {
      failed.addAndGet(newlyFailed);
      failedMeter.increment(newlyFailed);
      if (last) {
        processed.addAndGet(after.size());
        processedThisRun.addAndGet(after.size());
        processedMeter.increment(after.size());
      }
    }
    if (last) {
      leave(flight);
    } else {
      flight.block = new BlockStore.Block(instance, block.number(), block.step() + 1, after);
      runStep(flight);
    }
  }

  /**
   * Hands a block through its last step to the output: the lines of its successful records, made
   * here (a record that cannot be made a line fails at {@link BatchRecord#OUTPUT}); the output
   * writes them in block order and commits the block, or gives it back unwritten.
   */
  private void toOutput(
      Flight flight, List<BatchRecord> after, StepCounts counts, long newlyFailed) {
    StringBuilder lines = new StringBuilder(after.size() * 64);
    long successful = 0;
    long unwritable = 0;
    for (BatchRecord record : after) {
      if (record.failed()) {
        continue;
      }
      try {
        lines.append(job.output().line(record.payload()));
        successful++;
      } catch (RuntimeException e) {
        unwritable++;
        sample(record.failedAt(BatchRecord.OUTPUT, "the output cannot write it: " + describe(e)));
      }
    }
    BlockStore.Block block = flight.block;
    BlockStore.Written written =
        new BlockStore.Written(
            block.number(),
            block.step(),
            after.size(),
            successful,
            counts,
            newlyFailed + unwritable);
    if (flight.holdsSlot && output.mayWaitWithoutSlot()) {
      // Waiting for the blocks before it, it holds only its lines: its place goes to the next
      // block, so a slow force or commit at the output does not starve the steps.
      flight.holdsSlot = false;
      slots.release();
    }
    output.offer(flight, written, lines.toString());
  }

  /**
   * Puts the block's processed records in the aggregator's queue and lets go of its place, so other
   * blocks fill the group; groups that are full go to the sink.
   */
  private void park(Flight flight, Aggregation aggregation, Parked parked, List<Integer> records) {
    synchronized (aggregation) {
      parked.waiting = records.size();
      aggregation.parked.add(parked);
      records.forEach(i -> aggregation.waiting.add(new Item(parked, i)));
    }
    if (flight.holdsSlot) {
      flight.holdsSlot = false;
      slots.release();
    }
    active.decrementAndGet();
    group(aggregation, false);
    maybeFinish();
  }

  /** Sends the aggregator's full groups (and, when {@code all}, what is left) to its sink. */
  private void group(Aggregation aggregation, boolean all) {
    while (true) {
      List<Item> group = new ArrayList<>();
      synchronized (aggregation) {
        int size =
            aggregation.aggregator.streaming() ? job.blockSize() : aggregation.aggregator.size();
        boolean ready =
            aggregation.aggregator.streaming()
                ? !aggregation.waiting.isEmpty()
                : aggregation.waiting.size() >= size || (all && !aggregation.waiting.isEmpty());
        if (!ready) {
          return;
        }
        while (group.size() < size && !aggregation.waiting.isEmpty()) {
          group.add(aggregation.waiting.poll());
        }
      }
      List<Object> payloads = new ArrayList<>(group.size());
      List<Long> positions = new ArrayList<>(group.size());
      for (Item item : group) {
        BatchRecord record = item.parked().after.get(item.index());
        payloads.add(record.payload());
        positions.add(record.position());
      }
      groupsInFlight.incrementAndGet();
      application
          .send(
              aggregation.flow,
              Message.of(payloads)
                  .withVariables(parameters)
                  .withVariable("instance", instance)
                  .withVariable("positions", positions))
          .handleAsync(
              (ignored, failure) -> {
                taken(aggregation, group, failure);
                return null;
              },
              movers)
          .exceptionally(
              e -> {
                error.compareAndSet(null, describe(e));
                stopping = true;
                groupsInFlight.decrementAndGet();
                maybeFinish();
                return null;
              });
    }
  }

  /** The sink took (or failed) a group: blocks with no record left waiting move on. */
  private void taken(Aggregation aggregation, List<Item> group, Throwable failure) {
    List<Parked> done = new ArrayList<>();
    synchronized (aggregation) {
      for (Item item : group) {
        Parked parked = item.parked();
        if (failure != null) {
          BatchRecord record = parked.after.get(item.index());
          String step = job.steps().get(parked.step).name();
          BatchRecord failedRecord =
              record.failedAt(step, "the aggregator's sink failed: " + describe(failure));
          parked.after.set(item.index(), failedRecord);
          parked.failed++;
          if (!record.failed()) {
            parked.newlyFailed++;
          }
          sample(failedRecord);
        }
        if (--parked.waiting == 0) {
          aggregation.parked.remove(parked);
          done.add(parked);
        }
      }
    }
    for (Parked parked : done) {
      active.incrementAndGet();
      commit(
          parked.flight,
          parked.after,
          new StepCounts(parked.processed, parked.failed, parked.skipped),
          parked.newlyFailed);
    }
    groupsInFlight.decrementAndGet();
    maybeFinish();
  }

  /**
   * When nothing moves any more (the input is read, no block is at work, no group at the sink):
   * hands the aggregators' last partial groups to their sinks, first step first; or, when the run
   * stops, lets the parked blocks go unmoved (a resumed run takes them from their step, and hands
   * their records to the sink again: at least once).
   */
  private synchronized void maybeFinish() {
    if (!loaderDone || active.get() > 0 || groupsInFlight.get() > 0) {
      return;
    }
    for (int step = 0; step < job.steps().size(); step++) {
      Aggregation aggregation = aggregations.get(step);
      if (aggregation == null) {
        continue;
      }
      List<Parked> left;
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
        group(aggregation, true);
        return;
      }
      left.forEach(parked -> abandon(parked.flight));
    }
  }

  private void abandon(Flight flight) {
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

  private void leave(Flight flight) {
    active.decrementAndGet();
    abandon(flight);
    maybeFinish();
  }

  private void sample(BatchRecord record) {
    synchronized (samples) {
      if (samples.size() < BatchResult.SAMPLES) {
        samples.add(record);
      }
    }
  }

  private BatchResult finish(Duration elapsed) {
    InstanceTable.Instance at = store.find(instance).orElseThrow();
    boolean passed = limitPassed();
    BatchState state;
    String message;
    if (error.get() != null) {
      state = BatchState.FAILED;
      message = "the job failed: " + error.get();
    } else if (passed) {
      state = BatchState.FAILED;
      message =
          at.failed()
              + " record(s) failed, more than maxFailedRecords "
              + job.maxFailedRecords()
              + "; no block was dispatched after that";
    } else if (stopping) {
      state = BatchState.STOPPED;
      message = "stopped; resume it to go on where it stopped";
    } else if (at.inputDone() && store.pending(instance, -1, 1).isEmpty()) {
      state = BatchState.COMPLETED;
      message = null;
    } else {
      state = BatchState.STOPPED;
      message = "stopped before the end of its input";
    }
    Map<Integer, StepCounts> byIndex = store.steps(instance);
    Map<String, StepCounts> steps = new LinkedHashMap<>();
    for (int i = 0; i < job.steps().size(); i++) {
      steps.put(job.steps().get(i).name(), byIndex.getOrDefault(i, StepCounts.NONE));
    }
    long beyond = passed ? at.failed() - job.maxFailedRecords() : 0;
    BatchResult result =
        new BatchResult(
            instance,
            job.name(),
            state,
            at.loaded(),
            at.processed(),
            at.successful(),
            at.failed(),
            steps,
            List.copyOf(samples),
            elapsed,
            beyond,
            message,
            processedThisRun.get());
    store.state(instance, state, summary(result));
    LOG.info(
        "Batch job {} instance {} {}: {} loaded, {} processed, {} successful, {} failed in {} ms{}",
        job.name(),
        instance,
        state,
        result.loaded(),
        result.processed(),
        result.successful(),
        result.failed(),
        elapsed.toMillis(),
        message == null ? "" : " (" + message + ")");
    return result;
  }

  private static String summary(BatchResult result) {
    return result.state()
        + ": loaded "
        + result.loaded()
        + ", processed "
        + result.processed()
        + ", successful "
        + result.successful()
        + ", failed "
        + result.failed()
        + (result.message() == null ? "" : "; " + result.message());
  }

  private static Throwable unwrap(Throwable e) {
    Throwable cause = e;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  private static String describe(Throwable e) {
    Throwable cause = unwrap(e);
    return cause.getClass().getSimpleName()
        + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
  }
}
