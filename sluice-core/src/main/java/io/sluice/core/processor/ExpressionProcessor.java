package io.sluice.core.processor;

import io.sluice.core.Message;
import io.sluice.core.expression.Expression;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;

/**
 * Evaluates a JEXL expression and puts its value in the payload, or in a variable when {@code
 * target} is set. Declares its processing type, CPU_LITE by default: an expression that calls out
 * to something slow should say BLOCKING_IO.
 */
public final class ExpressionProcessor implements Processor {

  private final Expression expression;
  private final String target;
  private final ProcessingType type;

  /** Evaluates {@code expression} into the payload, or into variable {@code target} if not null. */
  public ExpressionProcessor(Expression expression, String target, ProcessingType type) {
    this.expression = expression;
    this.target = target;
    this.type = type;
  }

  @Override
  public Message process(Message message) {
    Object value = expression.evaluate(message);
    return target == null ? message.withPayload(value) : message.withVariable(target, value);
  }

  @Override
  public ProcessingType processingType() {
    return type;
  }

  @Override
  public String name() {
    return "expression";
  }
}
