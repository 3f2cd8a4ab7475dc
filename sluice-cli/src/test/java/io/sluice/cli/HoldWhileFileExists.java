package io.sluice.cli;

import io.sluice.core.Message;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * A test component that holds the message whose payload is {@code sku-20} for as long as the file
 * {@code hold} exists in the working directory, after writing {@code holding}: the kill test's way
 * to have the process killed inside a try scope at a point it controls. Every other message passes.
 * (On SQLite the held scope keeps the file's write lock, so every other write waits for it: the
 * test sends the held order last.)
 */
public final class HoldWhileFileExists implements Processor {

  @Override
  public Message process(Message message) throws IOException {
    if (!"sku-20".equals(message.payload())) {
      return message;
    }
    Path hold = Path.of("hold");
    if (Files.exists(hold)) {
      Files.writeString(Path.of("holding"), "sku-20");
      while (Files.exists(hold)) {
        LockSupport.parkNanos(5_000_000); // until the test kills the process
      }
    }
    return message;
  }

  @Override
  public ProcessingType processingType() {
    return ProcessingType.BLOCKING_IO;
  }
}
