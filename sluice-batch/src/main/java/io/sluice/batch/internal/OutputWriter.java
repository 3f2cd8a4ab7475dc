package io.sluice.batch.internal;

import io.sluice.batch.BatchOutput;
import io.sluice.batch.BatchOutputException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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

  /** Files written by a run of this process now: two runs appending to one file would mix it. */
  private static final Set<Path> OPEN = ConcurrentHashMap.newKeySet();

  private final BatchOutput output;
  private final Path file;
  private final BlockStore store;
  private final long instance;
  private final Done<T> done;
  private final FileChannel channel;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<Long> expected = new ArrayDeque<>();
  private final Map<Long, Ready<T>> ready = new HashMap<>();
  private final Set<Long> gone = new HashSet<>();
  private final Thread thread;
  private final AtomicInteger waiting = new AtomicInteger();
  private boolean gap;
  private boolean closing;
  private long committed;

  private volatile io.sluice.jobs.spi.NodeLease lease;

  private OutputWriter(
      BatchOutput output, BlockStore store, long instance, Done<T> done, String threadName) {
    this.output = output;
    this.file = output.file().toAbsolutePath().normalize();
    this.store = store;
    this.instance = instance;
    this.done = done;
    if (!OPEN.add(file)) {
      throw new BatchOutputException(
          "The batch output "
              + file
              + " is being written by another run in this process; give each job its own file",
          null);
    }
    try {
      this.channel = open();
    } catch (RuntimeException e) {
      OPEN.remove(file);
      throw e;
    }
    this.thread = Thread.ofPlatform().name(threadName).daemon(true).start(this::writeLoop);
  }

  /**
   * Opens the output of {@code instance} as its commits left it: a new one is replaced by a file
   * holding the header (forced, then recorded); a begun one is cut back to the bytes its commits
   * count. A {@link BatchOutputException} when it cannot be, or is shorter than that.
   */
  /**
   * Fences the output's commits by {@code value}, the lease the run's blocks are claimed under
   * (shared stores): a commit after it lapsed changes nothing and fails the run.
   */
  void fencedBy(io.sluice.jobs.spi.NodeLease value) {
    this.lease = value;
  }

  static <T> OutputWriter<T> open(
      BatchOutput output, BlockStore store, long instance, Done<T> done, String threadName) {
    return new OutputWriter<>(output, store, instance, done, threadName);
  }

  private FileChannel open() {
    long bytes = store.outputBytes(instance);
    FileChannel opened = null;
    try {
      Path parent = file.getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      opened =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      if (bytes < 0) {
        opened.truncate(0);
        byte[] header = output.header().getBytes(StandardCharsets.UTF_8);
        writeFully(opened, ByteBuffer.wrap(header), 0);
        opened.force(false);
        store.outputBegun(instance, header.length);
        committed = header.length;
      } else {
        long size = opened.size();
        if (size < bytes) {
          throw new BatchOutputException(
              "The batch output "
                  + file
                  + " has "
                  + size
                  + " bytes, but instance "
                  + instance
                  + " wrote and committed "
                  + bytes
                  + ": it was cut or replaced since. Put the file back as it was to resume, or"
                  + " start a new instance",
              null);
        }
        // Lines written after the last commit, by a run that crashed before committing them: their
        // blocks are still in the store and write them again.
        opened.truncate(bytes);
        committed = bytes;
      }
      return opened;
    } catch (IOException e) {
      close(opened);
      throw new BatchOutputException(
          "Could not open the batch output " + file + ": " + describe(e), e);
    } catch (RuntimeException e) {
      close(opened);
      throw e;
    }
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
    int size = 0;
    for (Ready<T> r : batch) {
      size += r.lines().length;
    }
    ByteBuffer buffer = ByteBuffer.allocate(size);
    List<BlockStore.Written> blocks = new ArrayList<>(batch.size());
    for (Ready<T> r : batch) {
      buffer.put(r.lines());
      blocks.add(r.counts());
    }
    buffer.flip();
    long end = committed + size;
    try {
      writeFully(channel, buffer, committed);
      channel.force(false);
      store.written(instance, blocks, end, lease);
    } catch (IOException | RuntimeException e) {
      String why =
          e instanceof IOException
              ? "could not write the batch output " + file + ": " + describe(e)
              : describe(e);
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
    committed = end;
    batch.forEach(r -> done.written(r.block(), r.counts()));
  }

  private static void writeFully(FileChannel channel, ByteBuffer buffer, long position)
      throws IOException {
    long at = position;
    while (buffer.hasRemaining()) {
      at += channel.write(buffer, at);
    }
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
    try {
      channel.truncate(committed);
      channel.force(false);
    } catch (IOException e) {
      // Whatever is past the committed bytes is cut when the instance is resumed.
    } finally {
      close(channel);
      OPEN.remove(file);
    }
  }

  private static void close(FileChannel channel) {
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } catch (IOException e) {
      // every byte that counts was forced before its commit
    }
  }

  private static String describe(Throwable e) {
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }
}
