package io.sluice.batch;

import io.sluice.core.SluiceException;

/** A batch job's input could not be opened or read (not a record of it: the input itself). */
public final class BatchInputException extends SluiceException {

  private static final long serialVersionUID = 1L;

  /** The error with {@code message}, naming the input. */
  public BatchInputException(String message, Throwable cause) {
    super(message, cause);
  }
}
