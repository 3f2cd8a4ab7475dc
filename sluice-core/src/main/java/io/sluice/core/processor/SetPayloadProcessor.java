package io.sluice.core.processor;

import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;

/**
 * Replaces the payload with a value: literal text, text with {@code #[...]} expressions, or a lone
 * expression whose value (of any type) becomes the payload.
 */
public final class SetPayloadProcessor implements Processor {

  private final Template value;

  /** Sets the payload to {@code value}. */
  public SetPayloadProcessor(Template value) {
    this.value = value;
  }

  @Override
  public Message process(Message message) {
    return message.withPayload(value.evaluate(message));
  }

  @Override
  public ProcessingType processingType() {
    return ProcessingType.CPU_LITE;
  }

  @Override
  public String name() {
    return "set-payload";
  }
}
