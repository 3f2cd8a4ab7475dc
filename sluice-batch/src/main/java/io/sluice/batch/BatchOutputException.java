package io.sluice.batch;

import io.sluice.core.SluiceException;

/**
 * A batch job's output file could not be opened, written or forced to the disk, or it is not as the
 * job's commits left it (cut shorter, or written by another run): the instance fails, naming the
 * file.
 */
public final class BatchOutputException extends SluiceException {

  private static final long serialVersionUID = 1L;

  /** The error with {@code message}, naming the output. */
  public BatchOutputException(String message, Throwable cause) {
    super(message, cause);
  }
}
