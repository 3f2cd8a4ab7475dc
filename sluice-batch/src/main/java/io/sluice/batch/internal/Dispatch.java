package io.sluice.batch.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.sluice.batch.BatchRecord;
import io.sluice.batch.BatchStep;
import io.sluice.batch.StepCounts;
import io.sluice.core.Backoff;
import io.sluice.core.Message;
import io.sluice.core.ThrottledException;
import io.sluice.jdbc.SqlStates;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A run's blocks through its steps: records sent to a step's flow, the step's commit, the output.
 */
final class Dispatch {

  /** How many times a throttled call of a record is made again before the record fails. */
  static final int THROTTLED_RETRIES = 10;

  /**
   * The pause before a throttled call is made again: 20 ms doubled up to 2 s, half to all of it.
   */
  static final Backoff THROTTLED =
      Backoff.doubling(Duration.ofMillis(20), Duration.ofMillis(2_000))
          .withJitter(Backoff.Jitter.HALF_TO_FULL);

  private final BatchRun run;
  private final List<String> flows;
  private final Counter retriedMeter;
  private final List<Timer> stepTimers = new ArrayList<>();

  Dispatch(BatchRun run, List<String> flows, MeterRegistry registry) {
    this.run = run;
    this.flows = flows;
    for (BatchStep step : run.job.steps()) {
      stepTimers.add(
          Timer.builder("sluice.batch.step.duration")
              .tag("job", run.job.name())
              .tag("step", step.name())
              .description("How long a block took through a step, its records sent to its end")
              .publishPercentileHistogram()
              .minimumExpectedValue(Duration.ofNanos(100_000))
              .maximumExpectedValue(Duration.ofMinutes(10))
              .register(registry));
    }
    this.retriedMeter =
        Counter.builder("sluice.batch.throttled.retries")
            .tag("job", run.job.name())
            .description("Calls a downstream throttled, made again after a pause")
            .register(registry);
  }

  /**
   * Sends the block's records through its step's processors. Never throws: what fails before the
   * records are on their way (the storage, a flow that cannot take them) fails the run and lets the
   * block go, or the run would wait for ever for it to leave (it runs on a mover, whose exception
   * nobody sees).
   */
  void runStep(Flight flight) {
    try {
      sendThroughStep(flight);
    } catch (RuntimeException | Error e) {
      failed(flight, e);
    }
  }

  private void sendThroughStep(Flight flight) {
    BlockStore.Block block = flight.block;
    if (!run.mayDispatch() || block.step() >= run.job.steps().size()) {
      run.leave(flight);
      return;
    }
    BatchStep step = run.job.steps().get(block.step());
    Timer timer = stepTimers.get(block.step());
    long started = System.nanoTime();
    List<BatchRecord> records = block.records();
    List<CompletableFuture<Message>> sent = new ArrayList<>(records.size());
    boolean[] taken = new boolean[records.size()];
    String[] refused = new String[records.size()];
    for (int i = 0; i < records.size(); i++) {
      BatchRecord record = records.get(i);
      try {
        taken[i] = step.takes(record, run.parameters);
      } catch (RuntimeException e) {
        refused[i] = "the accept expression failed: " + BatchRun.describe(e);
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
              timer.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
              stepDone(flight, step, taken, refused, sent);
              return null;
            },
            run.movers)
        .exceptionally(e -> failed(flight, e));
  }

  /**
   * Sends {@code record} through a step's flow; a call the downstream throttled (HTTP 429 or 503:
   * it refused the call, so nothing was done) is sent again after a growing, jittered pause, up to
   * {@link #THROTTLED_RETRIES} times, while {@code auto} lowers its limit. Only then does the
   * record fail.
   */
  private CompletableFuture<Message> send(String flow, BatchRecord record, int retries) {
    return run.application
        .send(flow, BatchStep.message(record, run.parameters).withAttributes(run.logAttributes))
        .exceptionallyCompose(
            e -> {
              if (!(BatchRun.unwrap(e) instanceof ThrottledException)
                  || retries >= THROTTLED_RETRIES) {
                return CompletableFuture.failedFuture(e);
              }
              retriedMeter.increment();
              Executor later =
                  CompletableFuture.delayedExecutor(
                      THROTTLED.delay(retries, ThreadLocalRandom.current()).toMillis(),
                      TimeUnit.MILLISECONDS);
              return CompletableFuture.supplyAsync(() -> retries + 1, later)
                  .thenCompose(next -> send(flow, record, next));
            });
  }

  /** The run cannot go on (the storage failed): nothing more is dispatched; the block leaves. */
  private Void failed(Flight flight, Throwable e) {
    run.fail(e);
    run.leave(flight);
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
    List<BatchRecord> newlyFailed = new ArrayList<>();
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
          why = BatchRun.describe(e);
        }
      }
      if (why != null) {
        stepFailed++;
        result = record.failedAt(step.name(), why);
        if (!record.failed()) {
          newlyFailed.add(result);
        }
        run.sample(result);
      } else {
        aggregated.add(i);
      }
      after.add(result);
    }
    StepCounts counts = new StepCounts(processed, stepFailed, before.size() - processed);
    int index = flight.block.step();
    Aggregation aggregation = run.aggregations.get(index);
    if (aggregation == null || aggregated.isEmpty()) {
      commit(flight, after, counts, newlyFailed);
      return;
    }
    aggregation.park(
        flight, new Aggregation.Parked(flight, index, after, counts, newlyFailed), aggregated);
  }

  /**
   * Commits the block's step and sends it on to the next step, or out. A commit the storage refuses
   * fails the run and lets the block go (it stays stored at its step): it is called where nobody
   * would see the exception, after the aggregator's sink took the block's records.
   */
  void commit(
      Flight flight, List<BatchRecord> after, StepCounts counts, List<BatchRecord> newlyFailed) {
    BlockStore.Block block = flight.block;
    boolean last = block.step() == run.job.steps().size() - 1;
    if (last && run.job.output() != null) {
      toOutput(flight, after, counts, newlyFailed);
      return;
    }
    Boolean moved =
        move(
            flight,
            () ->
                run.store.advance(
                    run.instance,
                    block.number(),
                    block.step(),
                    last,
                    after,
                    counts,
                    newlyFailed,
                    run.lease));
    if (moved == null) {
      return;
    }
    if (!moved && run.leases != null) {
      // Not held under this run's lease any more (it lapsed): another node has the block.
      flight.settled = true;
      run.leave(flight);
      return;
    }
    if (moved && last) {
      flight.settled = true;
    }
    if (moved) {
      run.through(last ? after.size() : 0, newlyFailed.size());
    }
    if (last) {
      run.leave(flight);
    } else {
      flight.block = new BlockStore.Block(run.instance, block.number(), block.step() + 1, after);
      runStep(flight);
    }
  }

  /**
   * Hands a block through its last step to the output: the lines of its successful records, made
   * here (a record that cannot be made a line fails at {@link BatchRecord#OUTPUT}); the output
   * writes them in block order and commits the block, or gives it back unwritten.
   */
  private void toOutput(
      Flight flight, List<BatchRecord> after, StepCounts counts, List<BatchRecord> newlyFailed) {
    StringBuilder lines = new StringBuilder(after.size() * 64);
    long successful = 0;
    List<BatchRecord> failures = new ArrayList<>(newlyFailed);
    for (BatchRecord record : after) {
      if (record.failed()) {
        continue;
      }
      try {
        lines.append(run.job.output().line(record.payload()));
        successful++;
      } catch (RuntimeException e) {
        BatchRecord unwritable =
            record.failedAt(
                BatchRecord.OUTPUT, "the output cannot write it: " + BatchRun.describe(e));
        failures.add(unwritable);
        run.sample(unwritable);
      }
    }
    BlockStore.Block block = flight.block;
    BlockStore.Written written =
        new BlockStore.Written(
            block.number(), block.step(), after.size(), successful, counts, failures);
    if (run.leases != null) {
      byte[] bytes = lines.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
      if (flight.holdsSlot) {
        // Written from memory or through the store, it waits for the blocks before it holding
        // only its lines: its place goes to the next block.
        flight.holdsSlot = false;
        run.slots.release();
      }
      SharedOutput output = run.sharedOutput;
      if (output == null || !output.offer(flight, written, bytes)) {
        leaveLines(flight, written, bytes);
      }
      return;
    }
    if (flight.holdsSlot && run.output.mayWaitWithoutSlot()) {
      // Waiting for the blocks before it, it holds only its lines: its place goes to the next
      // block, so a slow force or commit at the output does not starve the steps.
      flight.holdsSlot = false;
      run.slots.release();
    }
    run.output.offer(flight, written, lines.toString());
  }

  /**
   * On a shared store, where another node writes the output (or this one's writer has as many
   * blocks waiting as it keeps): commits a block through its last step leaving its lines in its
   * row, for the node that writes the output ({@link SharedOutput}), and lets it go; as a step's
   * commit, a store out of reach leaves it stored at its step, and a block no longer held here is
   * another node's.
   */
  private void leaveLines(Flight flight, BlockStore.Written written, byte[] lines) {
    Boolean moved =
        move(flight, () -> run.store.throughToOutput(run.instance, written, lines, run.lease));
    if (moved == null) {
      return;
    }
    flight.settled = true;
    if (moved) {
      run.through(written.records(), written.newlyFailed().size());
      SharedOutput output = run.sharedOutput;
      if (output != null) {
        output.linesStored();
      }
    }
    run.leave(flight);
  }

  /**
   * Runs {@code move}, a commit of {@code flight}'s block: whether it moved the block, or null when
   * the block left the run instead (the commit failed the run, or a shared store is out of reach:
   * the block stays stored at its step, held under this node's lease, and is run again, here once
   * the lease is renewed or by another node once it lapsed; the run's loop waits for the store).
   */
  private Boolean move(Flight flight, java.util.function.BooleanSupplier move) {
    try {
      return move.getAsBoolean();
    } catch (RuntimeException e) {
      if (run.leases != null && SqlStates.retryable(e)) {
        run.unreachable(e);
        run.leave(flight);
      } else {
        failed(flight, e);
      }
      return null;
    }
  }
}
