package io.sluice.testkit;

import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import io.sluice.core.processor.SetVariableProcessor;
import io.sluice.core.spi.Processor;
import java.nio.file.Path;

/** The processor contract, run against set-variable with a lone expression as the value. */
class SetVariableProcessorContractTest extends ProcessorContractTest {

  @Override
  protected Processor newProcessor(Path workDir) {
    return new SetVariableProcessor(
        "length", Template.parse("set-variable.value", "#[payload.length() + vars.n]"));
  }

  @Override
  protected Message message(int i) {
    return Message.of("x".repeat(i % 7) + i).withVariable("n", i);
  }
}
