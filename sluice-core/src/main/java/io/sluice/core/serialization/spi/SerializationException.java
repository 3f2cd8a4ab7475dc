package io.sluice.core.serialization.spi;

import io.sluice.core.SluiceException;

/**
 * A value could not be written or read. A failed read says why in a few words ({@link #fault()})
 * and in full (the message); {@link #reason()} gives both, as dead letters and failed records keep
 * it.
 */
public class SerializationException extends SluiceException {

  /** An error with this message. */
  public SerializationException(String message) {
    super(message);
  }

  /** An error with this message and cause. */
  public SerializationException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * Why a read failed: the fault of the failed read this error wraps, if it wraps one; otherwise
   * {@link RecordFault#UNREADABLE} unless the error knows better ({@link
   * io.sluice.core.serialization.spi.CorruptRecordException}, {@link
   * io.sluice.core.serialization.spi.ClassNotAllowedException}).
   */
  public RecordFault fault() {
    return getCause() instanceof SerializationException read
        ? read.fault()
        : RecordFault.UNREADABLE;
  }

  /** The fault and the message in one line: {@code checksum mismatch: A record of 93 bytes...}. */
  public String reason() {
    return fault().label() + ": " + getMessage();
  }
}
