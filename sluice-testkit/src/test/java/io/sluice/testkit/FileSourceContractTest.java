package io.sluice.testkit;

import io.sluice.core.Message;
import io.sluice.core.file.FileSource;
import io.sluice.core.file.FileSourceConfig;
import io.sluice.core.spi.Source;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;

/** The source contract, run against the file source polling a temporary directory. */
class FileSourceContractTest extends SourceContractTest {

  private Path in;

  @Override
  protected Source newSource(Path workDir) throws Exception {
    in = Files.createDirectories(workDir.resolve("in"));
    return new FileSource(
        FileSourceConfig.builder(in).pollingFrequency(Duration.ofSeconds(1)).build());
  }

  @Override
  protected Predicate<Message> provoke(String content) throws Exception {
    Files.writeString(in.resolve(content + ".txt"), content);
    return message ->
        message.payload() instanceof byte[] bytes
            && new String(bytes, StandardCharsets.UTF_8).equals(content);
  }

  @Override
  protected boolean redeliversFailedMessages() {
    return true;
  }

  @Override
  protected boolean keepsRefusedMessages() {
    return true;
  }
}
