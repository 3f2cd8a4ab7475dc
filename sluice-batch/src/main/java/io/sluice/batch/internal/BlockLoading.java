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
                  "sluice-batch-" + run.job.name() + "-" + run.instance + "-load")) {
        while (!end && run.mayDispatch()) {
          if (run.lease != null) {
            run.claims.awaitRoomToLoad();
            if (!run.mayDispatch()) {
              break;
            }
          }
          List<BlockStore.Loaded> group = new ArrayList<>(perCommit);
          while (group.size() < perCommit) {
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
        run.store.inputDone(run.instance, run.lease);
        run.inputRead = true;
      }
    }
  }

  /** Stores groups of loaded blocks in one commit, then dispatches them in order. */
  private void storeAndDispatch(List<LoadCommitter.Group> groups) {
    List<BlockStore.Loaded> blocks = new ArrayList<>();
    groups.forEach(g -> blocks.addAll(g.blocks()));
    // On a shared store, the blocks this node has free places for now are stored claimed by it and
    // run from memory (no claim to make, no records to read back); the rest wait for any node's
    // claim. A job with an output file has its blocks claimed in order instead.
    int own = 0;
    if (run.lease != null && run.output == null) {
      while (own < blocks.size() && run.slots.tryAcquire()) {
        own++;
      }
    }
    List<Boolean> stored;
    try {
      stored = run.store.load(run.instance, blocks, groups.getLast().next(), run.lease, own);
    } catch (RuntimeException | Error e) {
      run.slots.release(own);
      throw e;
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
      for (int i = 0; i < own; i++) {
        BlockStore.Loaded block = blocks.get(i);
        if (stored.get(i)) {
          run.dispatchHolding(
              new BlockStore.Block(run.instance, block.number(), 0, block.records()));
        } else {
          run.slots.release(); // stored before (a loading taken over): whoever holds it runs it
        }
      }
      run.claims.loaded();
      return;
    }
    for (BlockStore.Loaded block : blocks) {
      run.dispatch(new BlockStore.Block(run.instance, block.number(), 0, block.records()));
    }
  }
}
