package io.sluice.testkit;

import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import io.sluice.core.file.FileWriteProcessor;
import io.sluice.core.file.WriteMode;
import io.sluice.core.spi.Processor;
import java.nio.file.Path;
import java.util.Map;

/**
 * The processor contract, run against the file sink in OVERWRITE mode: each message names its own
 * file, so the threaded run rewrites the same files with the same bytes as the single run.
 */
class FileWriteProcessorContractTest extends ProcessorContractTest {

  @Override
  protected Processor newProcessor(Path workDir) {
    return new FileWriteProcessor(
        workDir.resolve("out"),
        Template.parse("file-write.fileName", "#[attributes.fileName]"),
        WriteMode.OVERWRITE);
  }

  @Override
  protected Message message(int i) {
    return Message.of(
        ("content " + i).getBytes(java.nio.charset.StandardCharsets.UTF_8),
        Map.of("fileName", "file-" + i + ".txt"));
  }
}
