package io.sluice.core.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.spi.Processor;
import java.util.List;

/** Thread per message: a receiver thread runs the whole chain, blocking calls included. */
final class SynchronousEngine extends PooledEngine {

  private final ProfiledExecutor receiver;
  private final ProfiledExecutor async;

  SynchronousEngine(String flow, ProcessingStrategy.Synchronous strategy, MeterRegistry registry) {
    this(
        flow,
        new ProfiledExecutor(flow, "receiver", strategy.receiver(), registry),
        new ProfiledExecutor(flow, "async", strategy.async(), registry));
  }

  private SynchronousEngine(String flow, ProfiledExecutor receiver, ProfiledExecutor async) {
    super(flow, List.of(receiver, async));
    this.receiver = receiver;
    this.async = async;
  }

  @Override
  void enter(Execution execution) {
    receiver.execute(execution);
  }

  @Override
  void detach(Execution execution) {
    async.execute(execution);
  }

  @Override
  boolean handOver(Execution execution, Processor next) {
    return false;
  }
}
