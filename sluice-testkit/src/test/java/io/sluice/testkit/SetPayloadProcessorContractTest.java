package io.sluice.testkit;

import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import io.sluice.core.processor.SetPayloadProcessor;
import io.sluice.core.spi.Processor;
import java.nio.file.Path;

/** The processor contract, run against set-payload with a template mixing text and expressions. */
class SetPayloadProcessorContractTest extends ProcessorContractTest {

  @Override
  protected Processor newProcessor(Path workDir) {
    return new SetPayloadProcessor(
        Template.parse("set-payload.value", "#[payload.toUpperCase()]-#[vars.n * 2]"));
  }

  @Override
  protected Message message(int i) {
    return Message.of("payload-" + i).withVariable("n", i);
  }
}
