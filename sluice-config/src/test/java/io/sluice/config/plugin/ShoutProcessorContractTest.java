package io.sluice.config.plugin;

import io.sluice.core.Message;
import io.sluice.core.spi.Processor;
import io.sluice.testkit.ProcessorContractTest;
import java.nio.file.Path;

/** The test kit's processor contract, run against the {@code shout} of docs/components.md. */
class ShoutProcessorContractTest extends ProcessorContractTest {

  @Override
  protected Processor newProcessor(Path workDir) {
    return new ShoutProcessor(3);
  }

  @Override
  protected Message message(int i) {
    return Message.of("hello " + i);
  }
}
