package io.sluice.core.internal;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.IntSupplier;

/**
 * A stage's bounded queue that makes its pool start threads on demand: while the pool may still
 * grow and no thread is idle, it refuses the task, so the pool starts a thread for it; otherwise
 * the task waits here for an idle thread. A plain ThreadPoolExecutor either queues before it grows
 * (core below max) or starts a thread for every task until it reaches its core size, idle ones
 * notwithstanding (core equal to max). Tomcat's task queue works the same way.
 */
final class OnDemandQueue extends LinkedBlockingQueue<Runnable> {

  private transient volatile ThreadPoolExecutor pool;
  private transient volatile IntSupplier unfinished;
  private transient volatile IntSupplier threads;

  OnDemandQueue(int capacity) {
    super(capacity);
  }

  /**
   * Binds the queue to its pool; {@code unfinishedTasks} counts the tasks given to the pool and not
   * finished, this one included, and {@code liveThreads} the pool's threads (counted apart: the
   * pool's own getPoolSize() takes its main lock on every call).
   */
  void attach(ThreadPoolExecutor executor, IntSupplier unfinishedTasks, IntSupplier liveThreads) {
    this.pool = executor;
    this.unfinished = unfinishedTasks;
    this.threads = liveThreads;
  }

  @Override
  public boolean offer(Runnable task) {
    ThreadPoolExecutor executor = pool;
    if (executor != null) {
      int live = threads.getAsInt();
      // More unfinished tasks than threads means none is idle: grow while the pool may.
      if (unfinished.getAsInt() > live && live < executor.getMaximumPoolSize()) {
        return false;
      }
    }
    return super.offer(task);
  }

  /**
   * Queues a task the pool refused only because it reached its maximum between our check and its
   * attempt to grow; false when the queue is really full.
   */
  boolean force(Runnable task) {
    return super.offer(task);
  }
}
