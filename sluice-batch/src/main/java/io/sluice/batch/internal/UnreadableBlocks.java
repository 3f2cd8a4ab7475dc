package io.sluice.batch.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.batch.BatchJob;
import io.sluice.batch.BatchRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blocks of a run whose stored records cannot be read (a checksum mismatch, a truncated value,
 * a class outside the allow-list): each leaves the store at its step with all its records counted
 * failed (their number is kept beside the block; the job's block size for a block stored before
 * schema v5), so the job goes on, and ends under or over {@code maxFailedRecords} as any other
 * failures make it. One WARN per block names the job, instance, block and reason; {@code
 * sluice.batch.unreadable.blocks} counts them.
 */
final class UnreadableBlocks {

  private static final Logger LOG = LoggerFactory.getLogger(UnreadableBlocks.class);

  private final BatchJob job;
  private final BlockStore store;
  private final Counter blocks;

  UnreadableBlocks(BatchJob job, BlockStore store, MeterRegistry registry) {
    this.job = job;
    this.store = store;
    this.blocks =
        Counter.builder("sluice.batch.unreadable.blocks")
            .tag("job", job.name())
            .description("Stored blocks whose records could not be read; their records failed")
            .register(registry);
  }

  /**
   * A block taken out: how many records failed with it, and what stands for them among the failure
   * samples and the kept failed records (position 0: their places in the input are in the bytes
   * that cannot be read).
   */
  record Dropped(long records, BatchRecord sample) {}

  /**
   * Takes {@code block} out, its records failed; null when the block had moved already (or, claimed
   * under {@code lease}, is no longer held under it).
   */
  Dropped drop(BlockStore.Block block, io.sluice.jobs.spi.NodeLease lease) {
    BlockStore.Unreadable unreadable = block.unreadable();
    long records = unreadable.records() != null ? unreadable.records() : job.blockSize();
    String step = job.steps().get(Math.min(block.step(), job.steps().size() - 1)).name();
    String why =
        "block "
            + block.number()
            + " of "
            + records
            + " record(s) cannot be read: "
            + unreadable.reason();
    BatchRecord sample = new BatchRecord(0, null, step, why);
    if (!store.dropUnreadable(
        block.instance(), block.number(), block.step(), records, sample, lease)) {
      return null;
    }
    blocks.increment();
    LOG.warn(
        "Batch job {} instance {}: block {} at step {} cannot be read ({}); its {} record(s) count"
            + " as failed",
        job.name(),
        block.instance(),
        block.number(),
        step,
        unreadable.reason(),
        records);
    return new Dropped(records, sample);
  }
}
