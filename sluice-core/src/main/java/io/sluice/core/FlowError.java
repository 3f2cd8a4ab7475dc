package io.sluice.core;

/**
 * The error a flow's error handler is handling: where it happened and what was thrown.
 *
 * @param flow the flow's name
 * @param processor the name of the processor that failed
 * @param cause what it threw
 */
public record FlowError(String flow, String processor, Throwable cause) {

  /** The cause's message, or its class name when it has none. */
  public String message() {
    String text = cause.getMessage();
    return text == null ? cause.getClass().getName() : text;
  }

  /** The simple class name of the cause, for matching and logging. */
  public String type() {
    return cause.getClass().getSimpleName();
  }

  /** The cause's error type ({@code FORMAT:PARSE}), or null when it has none. */
  public String errorType() {
    return cause instanceof SluiceException typed ? typed.errorType() : null;
  }

  @Override
  public String toString() {
    return type() + " in " + flow + "/" + processor + ": " + message();
  }
}
