package io.sluice.core.serialization;

import io.sluice.core.SluiceException;

/** A value could not be written or read. */
public class SerializationException extends SluiceException {

  /** An error with this message. */
  public SerializationException(String message) {
    super(message);
  }

  /** An error with this message and cause. */
  public SerializationException(String message, Throwable cause) {
    super(message, cause);
  }
}
