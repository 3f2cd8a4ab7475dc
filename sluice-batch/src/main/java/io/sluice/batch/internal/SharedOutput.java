package io.sluice.batch.internal;

import io.sluice.core.Backoff;
import io.sluice.jdbc.SqlStates;
import io.sluice.jobs.spi.NodeLease;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The output file of an instance several nodes run (remote chunking): one node writes the file,
 * under its node lease as the loader loads. The blocks it takes through their last step itself wait
 * here in memory ({@link #offer}); the other nodes leave their blocks' lines in the blocks' rows
 * ({@link BlockStore#throughToOutput}). The writer appends the lines of the blocks that may be
 * written (every block before them is written), from memory or from the store, in block order,
 * forces the file, and takes those blocks out in one commit that sets the bytes the commits count,
 * fenced by its lease ({@link BlockStore#writtenLines}). Exactly once, as on one node: a crash
 * before the commit leaves the blocks in the store (at their last step, or with their lines), and
 * the next writer cuts the file back to the committed bytes and writes them again.
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
  private static final long LOOK_NANOS = SharedClaims.LOOK_NANOS;

  /** The writer's pause when no lines may be written yet: the claims' (5 ms doubled to 200 ms). */
  private static final Backoff IDLE = SharedClaims.IDLE;

  /** The writer's pause while the store does not answer: the claims' (100 ms doubled to 2 s). */
  private static final Backoff OUTAGE = SharedClaims.OUTAGE;

  /**
   * How many of this node's blocks may wait here for their turn; past it, a block leaves its lines
   * in the store as another node's do (it holds no place in flight either way).
   */
  static final int MAX_READY = 1_000;

  /** A block of this node through its last step: its counts and its lines. */
  private record Ready(Flight flight, BlockStore.Written counts, byte[] lines) {}

  private final BatchRun run;
  private final Semaphore wake = new Semaphore(0);
  private final Object lock = new Object();
  private final Map<Long, Ready> ready = new HashMap<>();
  private boolean accepting;

  /** Set when the run lost its lease: the writer stops and gives its blocks back. */
  private volatile boolean yielding;

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
      try {
        run.store.releaseWriting(run.instance, lease);
      } catch (RuntimeException released) {
        e.addSuppressed(released); // the writing lapses with this node's lease
      }
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
    synchronized (lock) {
      accepting = true;
    }
    yielding = false;
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
   * Offers {@code flight}, through its last step on this node, to the writer: true when this node
   * writes the output now and takes it (it is written, or given back unwritten); false when the
   * block should leave its lines in the store instead.
   */
  boolean offer(Flight flight, BlockStore.Written counts, byte[] lines) {
    synchronized (lock) {
      if (!accepting || ready.size() >= MAX_READY) {
        return false;
      }
      ready.put(counts.number(), new Ready(flight, counts, lines));
    }
    wake.release();
    return true;
  }

  /**
   * The run lost the lease it wrote under (on this node's clock; the lease may have been renewed in
   * time on the database's): the writer stops after its write in progress, if any, and gives back
   * the blocks waiting here, so that the run's rejoin, which waits until none of its blocks is in
   * flight, does not wait for blocks that wait for a block only the rejoined run lets go of. The
   * writing is taken again, under the lease the run rejoins with, at its next look.
   */
  void yieldWriting() {
    yielding = true;
    wake.release();
  }

  /** Stops taking blocks and gives back those waiting here: they leave unwritten. */
  private void giveBack() {
    List<Ready> back;
    synchronized (lock) {
      accepting = false;
      back = new ArrayList<>(ready.values());
      ready.clear();
    }
    back.forEach(r -> run.leave(r.flight()));
  }

  /**
   * Writes what may be written until the run closes the output or {@code lease} no longer holds;
   * then cuts the file back to the committed bytes and lets go of it.
   */
  private void write(OutputFile file, NodeLease lease) {
    int misses = 0;
    int failures = 0;
    long unsettled = -1;
    Batch pending = null;
    boolean lost = false;
    try {
      while (!closing && !yielding && run.leases.holds(lease)) {
        try {
          if (unsettled >= 0) {
            if (file.settle(unsettled)) {
              taken(pending);
            }
            unsettled = -1;
            pending = null;
          }
          Batch batch = next();
          failures = 0;
          if (batch == null) {
            if (run.stopping || run.limitPassed()) {
              // Nothing more may be written now, and the run ends once its blocks left: those
              // waiting here leave unwritten (their last step runs again when it resumes).
              return;
            }
            await(IDLE.delay(misses++));
            continue;
          }
          misses = 0;
          long end;
          try {
            end = file.append(batch.lines());
          } catch (IOException e) {
            file.cutBack();
            throw e;
          }
          unsettled = end;
          pending = batch;
          run.store.writtenLines(run.instance, batch.stored(), batch.counts(), end, lease);
          file.committed(end);
          unsettled = -1;
          pending = null;
          taken(batch);
        } catch (RoleLostException e) {
          LOG.warn("Batch job {}: {}", run.job.name(), e.getMessage());
          lost = true;
          return;
        } catch (IOException e) {
          run.fail(
              new IOException(
                  "could not write the batch output " + file.file() + ": " + BatchRun.describe(e),
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
          if (file.settle(unsettled)) {
            taken(pending);
          }
        } catch (IOException | RuntimeException e) {
          // Not known whether those bytes count: the next writer cuts the file to what the store
          // says (and this node's blocks of that write, given back below, are let go: any still
          // in the store runs its last step again).
          file.keepUncut();
        }
      }
      giveBack();
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

  /**
   * What may be written now, in block order: the lines of the blocks before the first that is
   * neither through on another node (its lines in its row) nor waiting here, up to {@link #WRITE}
   * blocks and no more after the first past {@link #WRITE_BYTES}; null when nothing may be.
   */
  private Batch next() {
    List<BlockStore.Ahead> ahead = run.store.ahead(run.instance, WRITE);
    List<Long> numbers = new ArrayList<>();
    List<Ready> inOrder = new ArrayList<>(); // null where the lines are in the store
    List<Long> stored = new ArrayList<>();
    long bytes = 0;
    synchronized (lock) {
      for (BlockStore.Ahead block : ahead) {
        Ready mine = ready.get(block.number());
        if (bytes >= WRITE_BYTES || (!block.stored() && mine == null)) {
          break;
        }
        numbers.add(block.number());
        inOrder.add(block.stored() ? null : mine);
        if (block.stored()) {
          stored.add(block.number());
        }
        bytes += block.stored() ? block.linesLength() : mine.lines().length;
      }
    }
    if (numbers.isEmpty()) {
      return null;
    }
    Map<Long, byte[]> fromStore =
        stored.isEmpty() ? Map.of() : run.store.lines(run.instance, stored);
    List<byte[]> lines = new ArrayList<>(numbers.size());
    List<Ready> here = new ArrayList<>();
    for (int i = 0; i < numbers.size(); i++) {
      Ready mine = inOrder.get(i);
      byte[] block = mine != null ? mine.lines() : fromStore.get(numbers.get(i));
      if (block == null) {
        // Taken out since it was read: another node writes the output now.
        throw new RoleLostException(run.instance, run.lease, RoleLostException.WRITES);
      }
      lines.add(block);
      if (mine != null) {
        here.add(mine);
      }
    }
    return new Batch(lines, stored, here);
  }

  /** One write: the lines in block order, the blocks whose lines were stored, and this node's. */
  private record Batch(List<byte[]> lines, List<Long> stored, List<Ready> here) {

    /** The counts of this node's blocks, committed with the write. */
    List<BlockStore.Written> counts() {
      return here.stream().map(Ready::counts).toList();
    }
  }

  /** The blocks of this node in {@code batch} are written and out of the store. */
  private void taken(Batch batch) {
    synchronized (lock) {
      batch.here().forEach(r -> ready.remove(r.counts().number()));
    }
    for (Ready r : batch.here()) {
      run.through(r.counts().records(), r.counts().newlyFailed().size());
      r.flight().settled = true;
      run.leave(r.flight());
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
