package io.sluice.core.internal;

import java.time.Duration;
import java.util.List;

/** An engine built from fixed stages (threading profiles): synchronous and staged. */
abstract class PooledEngine extends Engine {

  private final List<ProfiledExecutor> stages;

  PooledEngine(List<ProfiledExecutor> stages) {
    this.stages = List.copyOf(stages);
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
    return true;
  }

  @Override
  void shutdownNow() {
    stages.forEach(ProfiledExecutor::shutdownNow);
  }
}
