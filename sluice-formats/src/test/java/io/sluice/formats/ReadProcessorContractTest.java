package io.sluice.formats;

import io.sluice.core.Message;
import io.sluice.core.spi.Processor;
import io.sluice.testkit.ProcessorContractTest;
import java.nio.file.Path;

class ReadProcessorContractTest extends ProcessorContractTest {

  @Override
  protected Processor newProcessor(Path workDir) {
    return ReadProcessor.of(Format.JSON);
  }

  @Override
  protected Message message(int i) {
    return Message.of("{\"order\": {\"id\": " + i + ", \"items\": [\"a\", \"b\"]}}");
  }
}
