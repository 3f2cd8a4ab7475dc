package io.sluice.core.internal;

import io.sluice.core.Message;
import io.sluice.core.flow.Flow;
import io.sluice.core.flow.OnError;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Scope;
import io.sluice.core.spi.Step;
import java.util.List;

/**
 * Another flow reached by a flow-ref: its processors and sinks run on the caller's message, under
 * the caller's strategy, and its own error handler takes their errors. Its processors were started
 * by its own flow, so this starts nothing.
 */
final class FlowReference implements Scope {

  private final Flow target;
  private final List<Processor> chain;
  private final Step.Then then;

  FlowReference(Flow target) {
    this.target = target;
    this.chain = target.chain();
    this.then = OnError.handledBy(target.errorHandler());
  }

  @Override
  public Step enter(Message message) {
    return Step.run(chain, message, then);
  }

  @Override
  public String name() {
    return "flow-ref " + target.name();
  }
}
