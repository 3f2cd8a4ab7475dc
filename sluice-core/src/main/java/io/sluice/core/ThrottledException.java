package io.sluice.core;

/**
 * Thrown by a processor whose downstream said "too many" (HTTP 429 or 503, a rate limit, a full
 * pool). The {@code auto} strategy reads it as a sign of overload and lowers its limit.
 */
public class ThrottledException extends SluiceException {

  /** The downstream throttled; {@code message} says which and how. */
  public ThrottledException(String message) {
    super(message);
  }
}
