package io.sluice.core.processor;

import io.sluice.core.Message;
import io.sluice.core.logging.RepeatedFailureLog;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code async} scope: runs its processors on a copy of the message, detached, and lets the
 * flow go on at once with the message unchanged. What the scope does to its copy stays there; an
 * error in it is logged (a run of errors once, then summarised), never seen by the flow.
 */
public final class AsyncScope implements Processor {

  private static final Logger LOG = LoggerFactory.getLogger(AsyncScope.class);

  private final List<Processor> processors;
  private final List<Processor> started = new ArrayList<>();
  private FlowContext context;
  private RepeatedFailureLog failures;

  /** A scope running these processors. */
  public AsyncScope(List<Processor> processors) {
    this.processors = List.copyOf(processors);
  }

  @Override
  public void start(FlowContext flowContext) throws Exception {
    this.context = flowContext;
    this.failures =
        new RepeatedFailureLog(
            LOG,
            "The async scope of flow '" + flowContext.flowName() + "' failing",
            flowContext.clock());
    for (Processor processor : processors) {
      processor.start(flowContext);
      started.add(processor);
    }
  }

  @Override
  public void stop() {
    for (int i = started.size() - 1; i >= 0; i--) {
      started.get(i).stop();
    }
    started.clear();
  }

  @Override
  public Message process(Message message) {
    context
        .runDetached(processors, message)
        .whenComplete(
            (ignored, error) -> {
              if (error != null) {
                failures.failed(
                    "async scope in flow '{}' failed: {}", context.flowName(), error.toString());
              } else {
                failures.recovered();
              }
            });
    return message;
  }

  @Override
  public ProcessingType processingType() {
    return ProcessingType.CPU_LITE;
  }

  @Override
  public String name() {
    return "async";
  }

  /** The processors the scope runs. */
  public List<Processor> processors() {
    return processors;
  }
}
