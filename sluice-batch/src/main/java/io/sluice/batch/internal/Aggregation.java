package io.sluice.batch.internal;

import io.sluice.batch.Aggregator;
import io.sluice.batch.BatchRecord;
import io.sluice.batch.StepCounts;
import io.sluice.core.Message;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** A step's aggregator in a run: the records waiting for a group, the blocks they belong to. */
final class Aggregation {
  final String flow;
  final Aggregator aggregator;
  final ArrayDeque<Item> waiting = new ArrayDeque<>();
  final Set<Parked> parked = new LinkedHashSet<>();
  private final BatchRun run;

  Aggregation(BatchRun run, String flow, Aggregator aggregator) {
    this.run = run;
    this.flow = flow;
    this.aggregator = aggregator;
  }

  /**
   * A block whose step is done but whose records wait for the step's aggregator: it moves on once
   * the sink took every one of them.
   */
  static final class Parked {
    final Flight flight;
    final int step;
    final List<BatchRecord> after;
    long processed;
    long failed;
    final long skipped;
    final List<BatchRecord> newlyFailed;
    int waiting;

    Parked(
        Flight flight,
        int step,
        List<BatchRecord> after,
        StepCounts counts,
        List<BatchRecord> newlyFailed) {
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
  record Item(Parked parked, int index) {}

  /**
   * Puts the block's processed records in the aggregator's queue and lets go of its place, so other
   * blocks fill the group; groups that are full go to the sink.
   */
  void park(Flight flight, Parked parked, List<Integer> records) {
    synchronized (this) {
      parked.waiting = records.size();
      this.parked.add(parked);
      records.forEach(i -> this.waiting.add(new Item(parked, i)));
    }
    if (flight.holdsSlot) {
      flight.holdsSlot = false;
      run.slots.release();
    }
    run.active.decrementAndGet();
    group(false);
    run.maybeFinish();
  }

  /** Sends the aggregator's full groups (and, when {@code all}, what is left) to its sink. */
  void group(boolean all) {
    while (true) {
      List<Item> group = new ArrayList<>();
      synchronized (this) {
        int size = this.aggregator.streaming() ? run.job.blockSize() : this.aggregator.size();
        boolean ready =
            this.aggregator.streaming()
                ? !this.waiting.isEmpty()
                : this.waiting.size() >= size || (all && !this.waiting.isEmpty());
        if (!ready || !run.holdsLease()) {
          // A node whose lease lapsed hands no group over: its blocks are another node's now.
          return;
        }
        while (group.size() < size && !this.waiting.isEmpty()) {
          group.add(this.waiting.poll());
        }
      }
      List<Object> payloads = new ArrayList<>(group.size());
      List<Long> positions = new ArrayList<>(group.size());
      for (Item item : group) {
        BatchRecord record = item.parked().after.get(item.index());
        payloads.add(record.payload());
        positions.add(record.position());
      }
      run.groupsInFlight.incrementAndGet();
      CompletableFuture<Message> sent;
      try {
        sent =
            run.application.send(
                this.flow,
                Message.of(payloads)
                    .withVariables(run.parameters)
                    .withVariable("instance", run.instance)
                    .withVariable("positions", positions));
      } catch (RuntimeException e) {
        // As a sink's failure: its records fail, its blocks move on (thrown here, they would
        // stay parked and the group in flight for ever).
        sent = CompletableFuture.failedFuture(e);
      }
      sent.handleAsync(
              (ignored, failure) -> {
                taken(group, failure);
                return null;
              },
              run.movers)
          .exceptionally(
              e -> {
                run.fail(e);
                return null;
              });
    }
  }

  /**
   * The sink took (or failed) a group: blocks with no record left waiting move on. The group is no
   * longer in flight whatever happens here, or the run would wait for it for ever.
   */
  private void taken(List<Item> group, Throwable failure) {
    try {
      moveOn(group, failure);
    } finally {
      run.groupsInFlight.decrementAndGet();
      run.maybeFinish();
    }
  }

  private void moveOn(List<Item> group, Throwable failure) {
    List<Parked> done = new ArrayList<>();
    synchronized (this) {
      for (Item item : group) {
        Parked parked = item.parked();
        if (failure != null) {
          BatchRecord record = parked.after.get(item.index());
          String step = run.job.steps().get(parked.step).name();
          BatchRecord failedRecord =
              record.failedAt(step, "the aggregator's sink failed: " + BatchRun.describe(failure));
          parked.after.set(item.index(), failedRecord);
          parked.failed++;
          if (!record.failed()) {
            parked.newlyFailed.add(failedRecord);
          }
          run.sample(failedRecord);
        }
        if (--parked.waiting == 0) {
          this.parked.remove(parked);
          done.add(parked);
        }
      }
    }
    for (Parked parked : done) {
      run.active.incrementAndGet();
      run.steps.commit(
          parked.flight,
          parked.after,
          new StepCounts(parked.processed, parked.failed, parked.skipped),
          parked.newlyFailed);
    }
  }
}
