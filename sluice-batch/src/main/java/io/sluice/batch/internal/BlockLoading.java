package io.sluice.batch.internal;

import io.sluice.batch.BatchRecord;
import java.util.ArrayList;
import java.util.List;

/** A run's loading: the blocks an earlier run left, then the input read and stored in blocks. */
final class BlockLoading {

  private static final int PAGE = 256;

  /** About how many records the loader reads before one commit stores their blocks. */
  private static final int RECORDS_PER_LOAD = 1_000;

  private final BatchRun run;

  /** Blocks handed over to be stored unclaimed and not stored yet: the loader counts them ahead. */
  private final java.util.concurrent.atomic.AtomicInteger unclaimedPending =
      new java.util.concurrent.atomic.AtomicInteger();

  /**
   * Blocks handed over to be stored claimed by this node that wait for a place and were not sent to
   * their step yet: while any does, the loader takes no place ahead ({@link
   * SharedClaims#awaitRoomToLoad}).
   */
  private final java.util.concurrent.atomic.AtomicInteger waitingPending =
      new java.util.concurrent.atomic.AtomicInteger();

  BlockLoading(BatchRun run) {
    this.run = run;
  }

  /** Dispatches the blocks an earlier run left, in order. */
  void resume() {
    long after = -1;
    for (List<BlockStore.Block> page = run.store.pending(run.instance, after, PAGE);
        !page.isEmpty() && run.mayDispatch();
        page = run.store.pending(run.instance, after, PAGE)) {
      for (BlockStore.Block block : page) {
        if (block.unreadable() == null) {
          run.blocksFromStore.increment();
          run.dispatch(block);
        } else if (run.mayDispatch()) {
          dropUnreadable(block);
        }
        after = block.number();
      }
    }
  }

  /** Counts the records of a block that cannot be read as failed, through every step. */
  void dropUnreadable(BlockStore.Block block) {
    UnreadableBlocks.Dropped dropped = run.unreadable.drop(block, run.lease);
    if (dropped != null) {
      long records = dropped.records();
      run.failed.addAndGet(records);
      run.failedMeter.increment(records);
      run.processed.addAndGet(records);
      run.processedThisRun.addAndGet(records);
      run.processedMeter.increment(records);
      run.sample(dropped.sample());
    }
  }

  /** Reads the input from {@code position}, storing and dispatching its blocks. */
  void load(long position) {
    int perCommit = Math.max(1, Math.min(16, RECORDS_PER_LOAD / run.job.blockSize()));
    SourceInput source = run.job.input() instanceof SourceInput s ? s : null;
    if (source != null) {
      source.bind(run.application.context("batch." + run.job.name() + ".input"));
    }
    try (var reader = run.job.input().open(position)) {
      long next = position;
      boolean end = false;
      try (LoadCommitter committer =
          source != null
              ? LoadCommitter.inline(this::storeAndDispatch, reader::stored)
              : LoadCommitter.behind(
                  this::storeAndDispatch,
                  this::notStored,
                  "sluice-batch-" + run.job.name() + "-" + run.instance + "-load")) {
        while (!end && run.mayDispatch()) {
          SharedClaims.Room room = new SharedClaims.Room(0, 0, perCommit);
          if (run.lease != null) {
            room =
                run.claims.awaitRoomToLoad(perCommit, unclaimedPending::get, waitingPending::get);
            if (room.blocks() == 0 || !run.mayDispatch()) {
              run.slots.release(room.placed());
              break;
            }
          }
          List<BlockStore.Loaded> group = new ArrayList<>(room.blocks());
          // The places taken for this group, given back unless it is handed over with them.
          int placed = room.placed();
          try {
            while (group.size() < room.blocks()) {
              List<BatchRecord> records = new ArrayList<>(run.job.blockSize());
              long unreadable = 0;
              for (BatchRecord r = reader.next(); r != null; r = reader.next()) {
                records.add(r);
                if (r.failed()) {
                  unreadable++;
                  run.sample(r);
                }
                if (records.size() == run.job.blockSize()) {
                  break;
                }
              }
              boolean partial = records.size() < run.job.blockSize();
              if (!records.isEmpty()) {
                boolean claimed = group.size() < room.placed() + room.waiting();
                group.add(new BlockStore.Loaded(next, records, unreadable, claimed));
                next = reader.position();
              }
              if (partial) {
                // The input ended, or has nothing now (a source waiting for its records to be
                // acknowledged): the blocks so far are stored as they are.
                end = reader.ended();
                break;
              }
            }
            // Places taken for blocks the input did not have.
            run.slots.release(Math.max(0, placed - group.size()));
            placed = Math.min(placed, group.size());
            if (!group.isEmpty()) {
              LoadCommitter.Group handed = new LoadCommitter.Group(group, next, placed);
              int unclaimed = unclaimed(group);
              unclaimedPending.addAndGet(unclaimed);
              waitingPending.addAndGet(waiting(handed));
              mine(group, true);
              try {
                committer.submit(handed);
              } catch (RuntimeException | Error e) {
                unclaimedPending.addAndGet(-unclaimed);
                waitingPending.addAndGet(-waiting(handed));
                mine(group, false);
                throw e;
              }
            }
            placed = 0;
          } finally {
            run.slots.release(placed);
          }
        }
      }
      if (end) {
        run.store.inputDone(run.instance, run.lease);
        run.inputRead = true;
      }
    }
  }

  /**
   * Notes that the blocks of {@code blocks} stored claimed by this node are in its memory ({@code
   * in}: handed over to be stored), or not (not stored, or stored before by another loader).
   */
  private void mine(List<BlockStore.Loaded> blocks, boolean in) {
    for (BlockStore.Loaded block : blocks) {
      if (block.held()) {
        if (in) {
          run.mine.add(block.number());
        } else {
          run.mine.remove(block.number());
        }
      }
    }
  }

  /** How many of {@code blocks} are stored unclaimed (on a shared store). */
  private int unclaimed(List<BlockStore.Loaded> blocks) {
    if (run.lease == null) {
      return 0;
    }
    return (int) blocks.stream().filter(b -> !b.held()).count();
  }

  /**
   * Forgets the groups that were handed over and not stored (a store failed before them), giving
   * back the places taken for them.
   */
  private void notStored(List<LoadCommitter.Group> groups) {
    for (LoadCommitter.Group g : groups) {
      unclaimedPending.addAndGet(-unclaimed(g.blocks()));
      waitingPending.addAndGet(-waiting(g));
      run.slots.release(g.placed());
      mine(g.blocks(), false);
    }
  }

  /** How many blocks of {@code group} are claimed by this node with no place taken for them. */
  private static int waiting(LoadCommitter.Group group) {
    return (int) group.blocks().stream().filter(BlockStore.Loaded::held).count() - group.placed();
  }

  /** Stores groups of loaded blocks in one commit, then dispatches them in order. */
  private void storeAndDispatch(List<LoadCommitter.Group> groups) {
    List<BlockStore.Loaded> blocks = new ArrayList<>();
    List<Boolean> placed = new ArrayList<>();
    for (LoadCommitter.Group g : groups) {
      blocks.addAll(g.blocks());
      for (int i = 0; i < g.blocks().size(); i++) {
        placed.add(i < g.placed());
      }
    }
    // On a shared store, the blocks planned for this node are stored claimed by it and run from
    // memory (no claim to make, no records to read back), on the places taken for them or each as
    // a place frees; the rest wait for the other nodes' claims (this node's, once its loading ends
    // when it holds what it loads).
    List<Boolean> stored;
    try {
      stored = run.store.load(run.instance, blocks, groups.getLast().next(), run.lease);
    } catch (RuntimeException | Error e) {
      run.slots.release(groups.stream().mapToInt(LoadCommitter.Group::placed).sum());
      waitingPending.addAndGet(-groups.stream().mapToInt(BlockLoading::waiting).sum());
      // Whether the commit went through is not known: any of these the store holds for this node
      // is let go at its next claim.
      mine(blocks, false);
      if (run.claims != null) {
        run.claims.uncertain();
      }
      throw e;
    } finally {
      unclaimedPending.addAndGet(-unclaimed(blocks));
    }
    for (int i = 0; i < blocks.size(); i++) {
      BlockStore.Loaded block = blocks.get(i);
      if (stored.get(i)) {
        run.loaded.addAndGet(block.records().size());
        run.failed.addAndGet(block.failed());
        run.loadedMeter.increment(block.records().size());
        run.failedMeter.increment(block.failed());
      }
    }
    if (run.lease != null) {
      for (int i = 0; i < blocks.size(); i++) {
        BlockStore.Loaded block = blocks.get(i);
        BlockStore.Block dispatched =
            new BlockStore.Block(run.instance, block.number(), 0, block.records());
        if (!block.held()) {
          continue;
        }
        if (!stored.get(i)) {
          // Stored before (a loading taken over): whoever holds it runs it.
          run.mine.remove(block.number());
          if (placed.get(i)) {
            run.slots.release();
          } else {
            waitingPending.decrementAndGet();
          }
        } else if (placed.get(i)) {
          run.blocksFromMemory.increment();
          run.dispatchHolding(dispatched);
        } else {
          run.blocksFromMemory.increment();
          run.dispatch(dispatched);
          waitingPending.decrementAndGet();
        }
      }
      return;
    }
    for (BlockStore.Loaded block : blocks) {
      run.blocksFromMemory.increment();
      run.dispatch(new BlockStore.Block(run.instance, block.number(), 0, block.records()));
    }
  }
}
