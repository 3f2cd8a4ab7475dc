package io.sluice.testkit;

import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import io.sluice.core.processor.ObjectStoreProcessor;
import io.sluice.core.spi.Processor;
import java.nio.file.Path;
import java.time.Duration;

/** The processor contract, run against store-put (keyed by the message, with a TTL). */
class ObjectStoreProcessorContractTest extends ProcessorContractTest {

  @Override
  protected Processor newProcessor(Path workDir) {
    return new ObjectStoreProcessor(
        ObjectStoreProcessor.Operation.PUT,
        "contract",
        Template.parse("store-put.key", "#[vars.n]"),
        null,
        null,
        Duration.ofMinutes(5));
  }

  @Override
  protected Message message(int i) {
    return Message.of("value " + i).withVariable("n", i);
  }
}
