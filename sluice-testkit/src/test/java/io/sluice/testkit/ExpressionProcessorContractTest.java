package io.sluice.testkit;

import io.sluice.core.Message;
import io.sluice.core.expression.Expression;
import io.sluice.core.processor.ExpressionProcessor;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.nio.file.Path;
import java.util.Map;

/** The processor contract, run against an expression whose value goes into a variable. */
class ExpressionProcessorContractTest extends ProcessorContractTest {

  @Override
  protected Processor newProcessor(Path workDir) {
    return new ExpressionProcessor(
        Expression.compile("expression.text", "attributes.base + payload.size()"),
        "sum",
        ProcessingType.CPU_LITE);
  }

  @Override
  protected Message message(int i) {
    return Message.of(java.util.List.of(1, 2, 3).subList(0, i % 4), Map.of("base", i));
  }
}
