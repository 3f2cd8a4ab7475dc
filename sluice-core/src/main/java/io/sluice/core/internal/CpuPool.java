package io.sluice.core.internal;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one platform pool for CPU_INTENSIVE work, one thread per core, shared by every flow of an
 * application. Its queue needs no bound of its own: each flow bounds what it holds in flight.
 */
final class CpuPool {

  private final ThreadPoolExecutor pool;

  CpuPool(int threads) {
    AtomicInteger counter = new AtomicInteger();
    this.pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            60,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            task -> {
              Thread thread = new Thread(task, "sluice-cpu-" + counter.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    pool.allowCoreThreadTimeOut(true);
  }

  void execute(Runnable task) {
    pool.execute(task);
  }

  int threads() {
    return pool.getMaximumPoolSize();
  }

  int queued() {
    return pool.getQueue().size();
  }

  void shutdown() {
    pool.shutdown();
  }
}
