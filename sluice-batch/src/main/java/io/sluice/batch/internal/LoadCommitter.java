package io.sluice.batch.internal;

import io.sluice.core.SluiceException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Consumer;

/**
 * Stores the groups of blocks the loader reads, so that reading does not wait for each commit: the
 * loader hands a group over and reads the next while a thread of its own stores what was handed
 * over meanwhile, all of it in one commit, and dispatches its blocks. On SQLite with {@code
 * synchronous=FULL} a commit waits for the disk, and a loader that waited for each one read at most
 * one group per fsync. At most {@link #DEPTH} groups wait; the loader waits when they do.
 *
 * <p>An input whose reader must hear that its records are stored ({@link
 * io.sluice.batch.BatchInput.Reader#stored}: a source that acknowledges its messages) is stored on
 * the loader's thread instead, each group before the next is read, as its acknowledgements need.
 */
final class LoadCommitter implements AutoCloseable {

  /**
   * Blocks read one after the other, the input position after the last of them, and how many of its
   * first blocks have a place of this node taken for them already.
   */
  record Group(List<BlockStore.Loaded> blocks, long next, int placed) {

    Group(List<BlockStore.Loaded> blocks, long next) {
      this(blocks, next, 0);
    }
  }

  /** Groups handed over and not yet stored, at most. */
  static final int DEPTH = 8;

  private static final Group END = new Group(List.of(), -1);

  private final Consumer<List<Group>> store;
  private final Consumer<List<Group>> dropped;
  private final Runnable stored;
  private final BlockingQueue<Group> waiting;
  private final Thread thread;
  private volatile RuntimeException failure;

  /**
   * Whether {@link #failure} was thrown already: thrown again by close(), try-with-resources would
   * add it to itself as suppressed, which throws "Self-suppression not permitted" and hides it.
   */
  private volatile boolean failureThrown;

  private LoadCommitter(
      Consumer<List<Group>> store,
      Consumer<List<Group>> dropped,
      Runnable stored,
      String threadName) {
    this.store = store;
    this.dropped = dropped;
    this.stored = stored;
    if (threadName == null) {
      this.waiting = null;
      this.thread = null;
    } else {
      this.waiting = new ArrayBlockingQueue<>(DEPTH);
      this.thread = Thread.ofPlatform().name(threadName).daemon(true).start(this::storeLoop);
    }
  }

  /**
   * A committer that stores groups ({@code store}: in one commit, then dispatches their blocks) on
   * a thread named {@code threadName}; the groups handed over after a store failed are given to
   * {@code dropped} instead (what the loader took for them is given back).
   */
  static LoadCommitter behind(
      Consumer<List<Group>> store, Consumer<List<Group>> dropped, String threadName) {
    return new LoadCommitter(store, dropped, () -> {}, threadName);
  }

  /** A committer that stores each group on the caller's thread, then tells {@code stored}. */
  static LoadCommitter inline(Consumer<List<Group>> store, Runnable stored) {
    return new LoadCommitter(store, groups -> {}, stored, null);
  }

  /** Hands {@code group} over; throws what failed an earlier store (the storage). */
  void submit(Group group) {
    throwIfFailed();
    if (thread == null) {
      store.accept(List.of(group));
      stored.run();
      return;
    }
    try {
      waiting.put(group);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SluiceException("interrupted while handing blocks over to be stored", e);
    }
  }

  private void throwIfFailed() {
    RuntimeException e = failure;
    if (e != null && !failureThrown) {
      failureThrown = true;
      throw e;
    }
  }

  private void storeLoop() {
    while (true) {
      Group first;
      try {
        first = waiting.take();
      } catch (InterruptedException e) {
        failure = new IllegalStateException("the loader's store thread was interrupted", e);
        return;
      }
      List<Group> groups = new ArrayList<>(DEPTH);
      groups.add(first);
      waiting.drainTo(groups);
      boolean end = groups.getLast() == END;
      if (end) {
        groups.removeLast();
      }
      if (failure == null && !groups.isEmpty()) {
        try {
          store.accept(groups);
        } catch (RuntimeException e) {
          failure = e; // the loader sees it at its next hand-over; what follows is not stored
        } catch (Error e) {
          // The thread goes on taking what is handed over: dead, it would leave the loader
          // waiting for ever for room in a full queue.
          failure = new SluiceException("storing the loaded blocks failed: " + e, e);
        }
      } else if (!groups.isEmpty()) {
        dropped.accept(groups);
      }
      if (end) {
        return;
      }
    }
  }

  /** Waits until every group handed over is stored; throws what failed a store. */
  @Override
  public void close() {
    if (thread != null) {
      boolean interrupted = false;
      while (true) {
        try {
          waiting.put(END);
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      while (true) {
        try {
          thread.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    throwIfFailed();
  }
}
