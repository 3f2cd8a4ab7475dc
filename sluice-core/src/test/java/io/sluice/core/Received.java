package io.sluice.core;

import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.List;

/** A CPU_LITE processor that notes each payload it sees, in order, and passes the message on. */
final class Received {

  private Received() {}

  static Processor into(List<Object> payloads) {
    return Processor.of(
        ProcessingType.CPU_LITE,
        message -> {
          payloads.add(message.payload());
          return message;
        });
  }
}
