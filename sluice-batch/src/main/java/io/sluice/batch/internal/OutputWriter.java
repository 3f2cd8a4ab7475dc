package io.sluice.batch.internal;

import io.sluice.batch.BatchOutput;
import io.sluice.batch.BatchOutputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Writes the lines of a run's blocks to the job's {@link BatchOutput} in block order, exactly once:
 * blocks finish their last step in any order, wait here until every block dispatched before them is
 * written, and are then appended, the file forced to the disk, and taken out of the store in one
 * commit that also records the bytes written ({@link BlockStore#written}). Whatever a crash leaves
 * after those bytes is cut off when the next run opens the file. Blocks ready together share one
 * write, one force and one commit.
 *
 * <p>A block dispatched but gone without reaching the output (the run stops, or a storage failure)
 * leaves a gap: nothing after it may be written, so the blocks behind it are given back unwritten
 * and a resumed run runs their last step again.
 *
 * @param <T> what the run knows a block by (its flight)
 */
final class OutputWriter<T> implements AutoCloseable {

  /** What the run does with a block once it is written and committed, or given back unwritten. */
  interface Done<T> {
    /** The block's lines are written and the block is out of the store. */
    void written(T block, BlockStore.Written counts);

    /** The block was not written (a gap before it, or the write failed): it stays in the store. */
    void unwritten(T block);

    /** The output failed: the run cannot go on. */
    void failed(String why);
  }

  /** A block through its last step: its lines, encoded, and the counts of its commit. */
  private record Ready<T>(T block, BlockStore.Written counts, byte[] lines) {}

  /**
   * How many blocks may wait here without holding a place in flight: their lines only (a few
   * kilobytes each), so that the steps go on while a force or a commit is slow.
   */
  static final int MAX_WAITING_WITHOUT_SLOT = 1_000;

  private final BlockStore store;
  private final long instance;
  private final Done<T> done;
  private final OutputFile file;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<Long> expected = new ArrayDeque<>();
  private final Map<Long, Ready<T>> ready = new HashMap<>();
  private final Set<Long> gone = new HashSet<>();
  private final Thread thread;
  private final AtomicInteger waiting = new AtomicInteger();
  private boolean gap;
  private boolean closing;

  private OutputWriter(
      BatchOutput output, BlockStore store, long instance, Done<T> done, String threadName) {
    this.store = store;
    this.instance = instance;
    this.done = done;
    OutputFile opened = OutputFile.open(output, store, instance);
    if (opened == null) {
      throw new BatchOutputException(
          "The batch output "
              + output.file().toAbsolutePath().normalize()
              + " is being written by another run (of this process, or of another that holds its"
              + " lock); give each job its own file",
          null);
    }
    this.file = opened;
    this.thread = Thread.ofPlatform().name(threadName).daemon(true).start(this::writeLoop);
  }

  /**
   * Opens the output of {@code instance} as its commits left it ({@link OutputFile}) and starts
   * writing the blocks offered, in the order they are expected. A {@link BatchOutputException} when
   * it cannot be opened, or is shorter than its commits count.
   */
  static <T> OutputWriter<T> open(
      BatchOutput output, BlockStore store, long instance, Done<T> done, String threadName) {
    return new OutputWriter<>(output, store, instance, done, threadName);
  }

  /** Block {@code number} was dispatched: it is written after every block dispatched before it. */
  void expect(long number) {
    lock.lock();
    try {
      expected.add(number);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Whether a block offered now may give up its place in flight: fewer than {@link
   * #MAX_WAITING_WITHOUT_SLOT} blocks wait here. Approximate (the count moves as blocks come and
   * go); it bounds memory, not correctness.
   */
  boolean mayWaitWithoutSlot() {
    return waiting.get() < MAX_WAITING_WITHOUT_SLOT;
  }

  /**
   * Block {@code block} ({@code counts.number()}) is through its last step, its lines {@code
   * lines}: written when its turn comes, or given back at once when a gap stops the output.
   */
  void offer(T block, BlockStore.Written counts, String lines) {
    byte[] bytes = lines.getBytes(StandardCharsets.UTF_8);
    lock.lock();
    try {
      if (!gap) {
        waiting.incrementAndGet();
        ready.put(counts.number(), new Ready<>(block, counts, bytes));
        changed.signal();
        return;
      }
    } finally {
      lock.unlock();
    }
    done.unwritten(block);
  }

  /** Block {@code number} left the run without reaching the output: nothing after it is written. */
  void gone(long number) {
    lock.lock();
    try {
      gone.add(number);
      changed.signal();
    } finally {
      lock.unlock();
    }
  }

  private void writeLoop() {
    while (true) {
      List<Ready<T>> batch = new ArrayList<>();
      List<Ready<T>> back = new ArrayList<>();
      lock.lock();
      try {
        while (!closing && !headMoves()) {
          changed.awaitUninterruptibly();
        }
        if (!headMoves()) {
          return; // closing, and nothing more can be written
        }
        while (!gap && !expected.isEmpty()) {
          long head = expected.peek();
          Ready<T> next = ready.remove(head);
          if (next != null) {
            batch.add(next);
            expected.poll();
          } else if (gone.remove(head)) {
            gap = true;
          } else {
            break;
          }
        }
        if (gap) {
          back.addAll(ready.values());
          ready.clear();
        }
        waiting.addAndGet(-batch.size() - back.size());
      } finally {
        lock.unlock();
      }
      if (!batch.isEmpty()) {
        write(batch);
      }
      back.forEach(r -> done.unwritten(r.block()));
    }
  }

  /** Whether the first block expected is ready or gone (or a gap left blocks to give back). */
  private boolean headMoves() {
    if (gap) {
      return !ready.isEmpty();
    }
    Long head = expected.peek();
    return head != null && (ready.containsKey(head) || gone.contains(head));
  }

  /** Appends the lines of {@code batch}, forces them, and commits their blocks and the new end. */
  private void write(List<Ready<T>> batch) {
    List<byte[]> lines = new ArrayList<>(batch.size());
    List<BlockStore.Written> blocks = new ArrayList<>(batch.size());
    for (Ready<T> r : batch) {
      lines.add(r.lines());
      blocks.add(r.counts());
    }
    try {
      long end = file.append(lines);
      store.written(instance, blocks, end);
      file.committed(end);
    } catch (IOException | RuntimeException e) {
      String why =
          e instanceof IOException
              ? "could not write the batch output " + file.file() + ": " + BatchRun.describe(e)
              : BatchRun.describe(e);
      lock.lock();
      try {
        gap = true; // nothing after these may be written
      } finally {
        lock.unlock();
      }
      batch.forEach(r -> done.unwritten(r.block()));
      done.failed(why);
      return;
    }
    batch.forEach(r -> done.written(r.block(), r.counts()));
  }

  /**
   * Once every block of the run has left: stops the writer and cuts the file back to the bytes the
   * commits count (lines of a failed commit would otherwise stay until the next run).
   */
  @Override
  public void close() {
    lock.lock();
    try {
      closing = true;
      changed.signal();
    } finally {
      lock.unlock();
    }
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    file.close();
  }
}
