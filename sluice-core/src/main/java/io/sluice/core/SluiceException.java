package io.sluice.core;

/**
 * The root of every error Sluice throws. Subclasses carry the context needed to act on them; the
 * message always says what happened and, where there is one, what to do next.
 *
 * <p>An error a flow's handler may want to tell apart carries an {@link #errorType() error type},
 * {@code NAMESPACE:IDENTIFIER} as Mule writes them ({@code FORMAT:PARSE}, {@code DB:CONNECTIVITY}):
 * an error handler's {@code types} matches it whole or by its identifier alone.
 */
public class SluiceException extends RuntimeException {

  private final String errorType;

  /** An error with this message. */
  public SluiceException(String message) {
    this(null, message, null);
  }

  /** An error with this message and cause. */
  public SluiceException(String message, Throwable cause) {
    this(null, message, cause);
  }

  /**
   * An error of this type ({@code NAMESPACE:IDENTIFIER}, or null for none) with this message and
   * cause (or null).
   */
  public SluiceException(String errorType, String message, Throwable cause) {
    super(message, cause);
    if (errorType != null && !errorType.matches("[A-Z][A-Z0-9_]*:[A-Z][A-Z0-9_]*")) {
      throw new IllegalArgumentException(
          "error type '" + errorType + "' must be NAMESPACE:IDENTIFIER in capitals");
    }
    this.errorType = errorType;
  }

  /** The error's type ({@code FORMAT:PARSE}), or null when it has none beyond its class. */
  public String errorType() {
    return errorType;
  }
}
