package io.sluice.core.store;

import io.sluice.core.SluiceException;

/**
 * A store could not do what was asked: the database is unreachable, a write failed, a file is
 * corrupt. The message names the store (its URL with the password masked, or its file) and what was
 * tried; nothing of a failed write is visible.
 */
public class StoreException extends SluiceException {

  /** An error with this message. */
  public StoreException(String message) {
    super(message);
  }

  /** An error with this message and cause. */
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
