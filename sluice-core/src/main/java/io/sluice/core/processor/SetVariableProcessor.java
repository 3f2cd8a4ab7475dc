package io.sluice.core.processor;

import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;

/** Sets a flow variable to a value (literal, template, or lone expression); null removes it. */
public final class SetVariableProcessor implements Processor {

  private final String variable;
  private final Template value;

  /** Sets {@code variable} to {@code value}. */
  public SetVariableProcessor(String variable, Template value) {
    this.variable = variable;
    this.value = value;
  }

  @Override
  public Message process(Message message) {
    return message.withVariable(variable, value.evaluate(message));
  }

  @Override
  public ProcessingType processingType() {
    return ProcessingType.CPU_LITE;
  }

  @Override
  public String name() {
    return "set-variable(" + variable + ")";
  }
}
