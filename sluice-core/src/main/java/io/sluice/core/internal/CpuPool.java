package io.sluice.core.internal;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The one platform pool for CPU_INTENSIVE work, one thread per core, shared by every flow of an
 * application. Its queue needs no bound of its own: each flow bounds what it holds in flight.
 */
final class CpuPool {

  private final ThreadPoolExecutor pool;

  CpuPool(int threads, MeterRegistry registry) {
    this.pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            60,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            ProfiledExecutor.threads("sluice-cpu"));
    pool.allowCoreThreadTimeOut(true);
    Tags tags = Tags.of("pool", "cpu");
    Gauge.builder("sluice.pool.active", pool, ThreadPoolExecutor::getActiveCount)
        .tags(tags)
        .description("Threads of the shared CPU pool busy")
        .register(registry);
    Gauge.builder("sluice.pool.queued", pool, p -> p.getQueue().size())
        .tags(tags)
        .description("CPU_INTENSIVE work waiting for the shared CPU pool")
        .register(registry);
    Gauge.builder("sluice.pool.limit", pool, ThreadPoolExecutor::getMaximumPoolSize)
        .tags(tags)
        .description("Threads of the shared CPU pool at most (the cores)")
        .register(registry);
    FunctionCounter.builder(
            "sluice.pool.completed", pool, ThreadPoolExecutor::getCompletedTaskCount)
        .tags(tags)
        .description("CPU_INTENSIVE tasks the shared pool finished")
        .register(registry);
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
