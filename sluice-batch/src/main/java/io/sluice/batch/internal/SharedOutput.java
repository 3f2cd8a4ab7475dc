package io.sluice.batch.internal;

import io.sluice.core.Backoff;
import io.sluice.jdbc.SqlStates;
import io.sluice.jobs.spi.NodeLease;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The output file of an instance several nodes run (remote chunking): every node takes its blocks
 * through their last step and leaves their lines in the blocks' rows ({@link
 * BlockStore#throughToOutput}); one node writes the file, under its node lease as the loader loads:
 * it appends the lines of the blocks that may be written (every block before them is written) in
 * block order, forces the file, and takes those blocks out in one commit that sets the bytes the
 * commits count, fenced by its lease ({@link BlockStore#writtenLines}). Exactly once, as on one
 * node: a crash before the commit leaves the lines in the store, and the next writer cuts the file
 * back to the committed bytes and writes them again.
 *
 * <p>Any node of the instance takes the writing over once the writer's lease lapses, and holds it
 * while its own lease holds. It needs the file the writer before it wrote (the same machine, or a
 * file system they share) and that file's lock, which a paused writer keeps: the new writer waits
 * until that process lets go (it does once its late commit is refused, cutting its uncommitted
 * bytes off first) or dies.
 */
final class SharedOutput implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(BatchRun.class);

  /** The most blocks' lines one write takes. */
  static final int WRITE = 128;

  /** One write takes no more blocks after the first whose lines begin past this many bytes. */
  static final long WRITE_BYTES = 8L << 20;

  /** How often a node that does not write looks whether the writer's lease lapsed. */
  private static final long LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

  /** The writer's pause when no lines may be written yet: 5 ms doubled up to 200 ms. */
  private static final Backoff IDLE =
      Backoff.doubling(Duration.ofMillis(5), Duration.ofMillis(200));

  /** The writer's pause while the store does not answer: 100 ms doubled up to 2 s. */
  private static final Backoff OUTAGE =
      Backoff.doubling(Duration.ofMillis(100), Duration.ofMillis(2_000));

  private final BatchRun run;
  private final Semaphore wake = new Semaphore(0);
  private long lookedAt = System.nanoTime() - LOOK_NANOS;
  private boolean toldLocked;
  private volatile boolean closing;
  private Thread writer;

  SharedOutput(BatchRun run) {
    this.run = run;
  }

  /**
   * Takes the writing of the output when no node with a valid lease writes it, and writes on a
   * thread of its own; at most twice a second. A file this node cannot open fails the run.
   */
  void look() {
    long now = System.nanoTime();
    if (closing || (writer != null && writer.isAlive()) || now - lookedAt < LOOK_NANOS) {
      return;
    }
    lookedAt = now;
    NodeLease lease = run.lease;
    if (!run.store.takeWriting(run.instance, lease)) {
      return;
    }
    OutputFile file;
    try {
      file = OutputFile.open(run.job.output(), run.store, run.instance);
    } catch (RuntimeException e) {
      run.store.releaseWriting(run.instance, lease);
      throw e;
    }
    if (file == null) {
      if (!toldLocked) {
        toldLocked = true;
        LOG.info(
            "Batch job {} instance {}: node {} writes the output {} once the process that wrote it"
                + " before lets go of the file (it holds its lock)",
            run.job.name(),
            run.instance,
            lease,
            run.job.output().file());
      }
      return;
    }
    toldLocked = false;
    LOG.info(
        "Batch job {} instance {}: node {} writes the output {} from byte {}",
        run.job.name(),
        run.instance,
        lease,
        file.file(),
        file.committed());
    writer =
        Thread.ofPlatform()
            .name("sluice-batch-" + run.job.name() + "-" + run.instance + "-output")
            .daemon(true)
            .start(() -> write(file, lease));
  }

  /** This node left a block's lines in the store: the writer looks at once. */
  void linesStored() {
    wake.release();
  }

  /**
   * Writes what may be written until the run closes the output or {@code lease} no longer holds;
   * then cuts the file back to the committed bytes and lets go of it.
   */
  private void write(OutputFile file, NodeLease lease) {
    int misses = 0;
    int failures = 0;
    long unsettled = -1;
    boolean lost = false;
    try {
      while (!closing && run.leases.holds(lease)) {
        try {
          if (unsettled >= 0) {
            file.settle(unsettled);
            unsettled = -1;
          }
          List<BlockStore.Lines> ahead = run.store.linesAhead(run.instance, WRITE, WRITE_BYTES);
          failures = 0;
          if (ahead.isEmpty()) {
            await(IDLE.delay(misses++));
            continue;
          }
          misses = 0;
          List<byte[]> lines = new ArrayList<>(ahead.size());
          ahead.forEach(block -> lines.add(block.lines()));
          long end;
          try {
            end = file.append(lines);
          } catch (IOException e) {
            file.cutBack();
            throw e;
          }
          unsettled = end;
          run.store.writtenLines(
              run.instance,
              ahead.getFirst().number(),
              ahead.getLast().number(),
              ahead.size(),
              end,
              lease);
          file.committed(end);
          unsettled = -1;
        } catch (RoleLostException e) {
          LOG.warn("Batch job {}: {}", run.job.name(), e.getMessage());
          lost = true;
          return;
        } catch (IOException e) {
          run.fail(
              new IOException(
                  "could not write the batch output " + file.file() + ": " + OutputFile.describe(e),
                  e));
          return;
        } catch (RuntimeException e) {
          if (!SqlStates.retryable(e)) {
            run.fail(e);
            return;
          }
          // The commit's outcome is unknown: the stored end tells, once the store answers.
          run.unreachable(e);
          pause(OUTAGE.delay(failures++));
        }
      }
    } finally {
      if (unsettled >= 0) {
        try {
          file.settle(unsettled);
        } catch (IOException | RuntimeException e) {
          // Not known whether those bytes count: the next writer cuts the file to what the store
          // says.
          file.keepUncut();
        }
      }
      file.close();
      if (!lost && run.leases.holds(lease)) {
        try {
          run.store.releaseWriting(run.instance, lease);
        } catch (RuntimeException e) {
          // another node takes the writing once this node's lease lapses
        }
      }
    }
  }

  private void await(Duration delay) {
    try {
      wake.tryAcquire(delay.toNanos(), TimeUnit.NANOSECONDS);
      wake.drainPermits();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closing = true;
    }
  }

  private void pause(Duration delay) {
    try {
      Thread.sleep(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closing = true;
    }
  }

  /**
   * Stops writing (what is left stays in the store for the next writer) and lets go of the file.
   */
  @Override
  public void close() {
    closing = true;
    wake.release();
    Thread running = writer;
    if (running != null) {
      try {
        running.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
