package io.sluice.cli;

import io.sluice.core.Message;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A test component that holds every message while the file {@value #GATE} exists in the process's
 * working directory, and lets all pass, without looking again, once it is gone: the cluster tests'
 * way to have node processes that start seconds apart begin their batch work together. Once open it
 * costs one volatile read per record, so a CPU-light step stays CPU-light.
 */
public final class HeldWhileGateExists implements Processor {

  /** The file whose presence holds every message. */
  static final String GATE = "gate";

  private static volatile boolean open;

  @Override
  public Message process(Message message) throws InterruptedException {
    while (!open) {
      if (!Files.exists(Path.of(GATE))) {
        open = true;
      } else {
        TimeUnit.MILLISECONDS.sleep(20);
      }
    }
    return message;
  }

  @Override
  public ProcessingType processingType() {
    return ProcessingType.CPU_LITE;
  }
}
