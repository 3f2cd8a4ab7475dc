package io.sluice.cli;

import io.sluice.core.Message;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.concurrent.TimeUnit;

/**
 * A test component that simulates 10 ms of blocking work per message, so that a run over many files
 * is still going when the test sends SIGTERM. (It simulates work; no test waits on it.)
 */
public final class SlowCopy implements Processor {

  @Override
  public Message process(Message message) throws InterruptedException {
    TimeUnit.MILLISECONDS.sleep(10);
    return message;
  }

  @Override
  public ProcessingType processingType() {
    return ProcessingType.BLOCKING_IO;
  }
}
