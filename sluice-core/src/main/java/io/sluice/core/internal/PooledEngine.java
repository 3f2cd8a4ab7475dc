package io.sluice.core.internal;

import java.time.Duration;
import java.util.List;

/** An engine built from fixed stages (threading profiles): synchronous and staged. */
abstract class PooledEngine extends Engine {

  private final List<ProfiledExecutor> stages;
  private final VirtualThreads forks;

  PooledEngine(String flow, List<ProfiledExecutor> stages) {
    this.stages = List.copyOf(stages);
    this.forks = new VirtualThreads("sluice-" + flow + "-route-");
  }

  /**
   * A forked route runs on a virtual thread of its own, not on the async pool: a route that waits
   * for routes of its own (a scatter-gather inside a scatter-gather) would otherwise hold a pool
   * thread while its routes wait for one, and a full pool would wait for itself.
   */
  @Override
  void fork(Execution execution) {
    forks.start(execution);
  }

  @Override
  void shutdown() {
    stages.forEach(ProfiledExecutor::shutdown);
  }

  @Override
  boolean awaitTermination(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (ProfiledExecutor stage : stages) {
      if (!stage.awaitTermination(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
        return false;
      }
    }
    return forks.awaitTermination(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
  }

  @Override
  void shutdownNow() {
    stages.forEach(ProfiledExecutor::shutdownNow);
    forks.interruptAll();
  }
}
