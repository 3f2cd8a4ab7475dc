package io.sluice.formats;

import io.sluice.core.Message;
import io.sluice.core.spi.Processor;
import io.sluice.testkit.ProcessorContractTest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

class TransformProcessorContractTest extends ProcessorContractTest {

  @Override
  protected Processor newProcessor(Path workDir) {
    return TransformProcessor.of(
        Map.of(
            "id",
            "#[payload.id]",
            "label",
            "n#[payload.id]",
            "tags",
            List.of("#[payload.id * 2]")));
  }

  @Override
  protected Message message(int i) {
    return Message.of(Map.of("id", i));
  }
}
