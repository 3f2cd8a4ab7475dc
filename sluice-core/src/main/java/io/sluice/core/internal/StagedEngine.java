package io.sluice.core.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.spi.Processor;
import java.util.List;

/**
 * SEDA: the receiver stage accepts from the source, the flow stage runs the processors, the
 * dispatcher stage runs the sinks; each hop goes through the next stage's bounded queue.
 */
final class StagedEngine extends PooledEngine {

  private final ProfiledExecutor receiver;
  private final ProfiledExecutor flowStage;
  private final ProfiledExecutor dispatcher;
  private final ProfiledExecutor async;

  StagedEngine(String flow, ProcessingStrategy.Staged strategy, MeterRegistry registry) {
    this(
        flow,
        new ProfiledExecutor(flow, "receiver", strategy.receiver(), registry),
        new ProfiledExecutor(flow, "flow", strategy.flow(), registry),
        new ProfiledExecutor(flow, "dispatcher", strategy.dispatcher(), registry),
        new ProfiledExecutor(flow, "async", strategy.async(), registry));
  }

  private StagedEngine(
      String flow,
      ProfiledExecutor receiver,
      ProfiledExecutor flowStage,
      ProfiledExecutor dispatcher,
      ProfiledExecutor async) {
    super(flow, List.of(receiver, flowStage, dispatcher, async));
    this.receiver = receiver;
    this.flowStage = flowStage;
    this.dispatcher = dispatcher;
    this.async = async;
  }

  @Override
  void enter(Execution execution) {
    receiver.execute(
        new StageTask() {
          @Override
          public void run() {
            execution.entered();
            flowStage.execute(execution);
          }

          @Override
          public boolean mayWait() {
            return execution.mayWait();
          }

          @Override
          public void refused(RuntimeException reason) {
            execution.refused(reason);
          }
        });
  }

  @Override
  void detach(Execution execution) {
    async.execute(execution);
  }

  @Override
  boolean handOver(Execution execution, Processor next) {
    if (!execution.atFirstSink()) {
      return false;
    }
    execution.placed();
    dispatcher.execute(execution);
    return true;
  }
}
