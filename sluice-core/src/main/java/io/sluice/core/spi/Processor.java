package io.sluice.core.spi;

import io.sluice.core.Message;

/**
 * A processor is one step of a flow: it takes a message and returns the message the next step sees.
 * Implementations must be thread-safe: one instance serves every message of its flow.
 *
 * <p>A processor declares its {@link ProcessingType}; user components that do not say otherwise are
 * taken to block, which is always safe.
 */
@FunctionalInterface
public interface Processor {

  /** Processes one message; a thrown exception hands the message to the flow's error handler. */
  Message process(Message message) throws Exception;

  /**
   * A processor that runs {@code body} and declares {@code type}: how a lambda says it is not
   * blocking work ({@code Processor.of(CPU_LITE, m -> m.withVariable("seen", true))}).
   */
  static Processor of(ProcessingType type, Processor body) {
    return new Processor() {
      @Override
      public Message process(Message message) throws Exception {
        return body.process(message);
      }

      @Override
      public ProcessingType processingType() {
        return type;
      }
    };
  }

  /** What this processor spends its time on. */
  default ProcessingType processingType() {
    return ProcessingType.BLOCKING_IO;
  }

  /** A short name for logs, metrics and errors. */
  default String name() {
    String simple = getClass().getSimpleName();
    return simple.isEmpty() ? "processor" : simple;
  }

  /** Called once before the first message, with the services of the flow it belongs to. */
  default void start(FlowContext context) throws Exception {}

  /** Called once after the last message. */
  default void stop() {}
}
