package io.sluice.formats;

import io.sluice.core.Message;
import io.sluice.core.spi.Processor;
import io.sluice.testkit.ProcessorContractTest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

class WriteProcessorContractTest extends ProcessorContractTest {

  @Override
  protected Processor newProcessor(Path workDir) {
    return WriteProcessor.of(Format.CSV);
  }

  @Override
  protected Message message(int i) {
    return Message.of(List.of(Map.of("id", i, "sku", "S-" + i)));
  }
}
