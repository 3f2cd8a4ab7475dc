package io.sluice.core;

/**
 * The root of every error Sluice throws. Subclasses carry the context needed to act on them; the
 * message always says what happened and, where there is one, what to do next.
 */
public class SluiceException extends RuntimeException {

  /** An error with this message. */
  public SluiceException(String message) {
    super(message);
  }

  /** An error with this message and cause. */
  public SluiceException(String message, Throwable cause) {
    super(message, cause);
  }
}
