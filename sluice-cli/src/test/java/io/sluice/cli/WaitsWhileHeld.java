package io.sluice.cli;

import io.sluice.core.Message;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A test component that stands for a system that is down: each message waits while the file {@value
 * #HOLD} exists in the working directory, and goes on once the test deletes it. A batch step made
 * of it keeps its instance running for as long as a test needs, then lets it finish at full speed.
 */
public final class WaitsWhileHeld implements Processor {

  /** The file whose presence holds every message. */
  static final String HOLD = "hold";

  @Override
  public Message process(Message message) throws InterruptedException {
    while (Files.exists(Path.of(HOLD))) {
      TimeUnit.MILLISECONDS.sleep(20);
    }
    return message;
  }

  @Override
  public ProcessingType processingType() {
    return ProcessingType.BLOCKING_IO;
  }
}
