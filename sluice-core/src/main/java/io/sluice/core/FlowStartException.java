package io.sluice.core;

/** A flow could not start: its source or one of its processors refused to. */
public class FlowStartException extends SluiceException {

  private final String flow;

  /** Flow {@code flow} failed to start because of {@code cause}. */
  public FlowStartException(String flow, Throwable cause) {
    super("Flow '" + flow + "' could not start: " + cause.getMessage(), cause);
    this.flow = flow;
  }

  /** Flow {@code flow} failed to start, as {@code message} says. */
  public FlowStartException(String flow, String message) {
    super("Flow '" + flow + "' could not start: " + message);
    this.flow = flow;
  }

  /** The flow that did not start. */
  public String flow() {
    return flow;
  }
}
