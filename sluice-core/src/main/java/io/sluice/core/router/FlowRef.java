package io.sluice.core.router;

import io.sluice.core.Message;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Scope;
import io.sluice.core.spi.Step;
import java.util.Objects;

/**
 * The {@code flow-ref} processor: the message goes through another flow of the application (or a
 * sub-flow: a flow with no source) and comes back with its result, on the caller's thread and
 * strategy; the other flow's error handler takes its errors. A flow may reach itself (recursion has
 * no depth limit but memory's, and a runaway one fails with an error).
 */
public final class FlowRef implements Scope {

  private final String target;
  private Scope reference;

  /** A reference to the flow named {@code target}. */
  public FlowRef(String target) {
    this.target = Objects.requireNonNull(target, "target");
  }

  /** Finds the flow, or fails the start naming the flows there are. */
  @Override
  public void start(FlowContext context) {
    reference = context.flowReference(target);
  }

  @Override
  public Step enter(Message message) throws Exception {
    Scope found = reference;
    if (found == null) {
      throw new IllegalStateException("flow-ref '" + target + "' was not started");
    }
    return found.enter(message);
  }

  @Override
  public ProcessingType processingType() {
    return ProcessingType.CPU_LITE;
  }

  @Override
  public String name() {
    return "flow-ref " + target;
  }

  /** The flow it reaches. */
  public String target() {
    return target;
  }
}
