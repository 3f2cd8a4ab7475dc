package io.sluice.core;

/**
 * A flow could not accept a message: its stage was full and its exhausted action (or its
 * backpressure setting) said not to wait, or waiting timed out. Nothing was accepted, so nothing is
 * lost: the source keeps the message (a file stays in its directory, a queue keeps its entry) or
 * answers its caller that the flow is busy.
 */
public class FlowBusyException extends SluiceException {

  private final String flow;
  private final String stage;

  /** The stage {@code stage} of flow {@code flow} refused a message; {@code state} says why. */
  public FlowBusyException(String flow, String stage, String state) {
    super(
        "Flow '"
            + flow
            + "' is busy: its "
            + stage
            + " stage refused a message ("
            + state
            + "). Raise the stage's maxThreadsActive or maxQueue, or choose exhaustedAction WAIT.");
    this.flow = flow;
    this.stage = stage;
  }

  /** A refusal by {@code stage} of {@code flow} with its own {@code message}, for subclasses. */
  protected FlowBusyException(String flow, String stage, String message, boolean ownMessage) {
    super(message);
    this.flow = flow;
    this.stage = stage;
  }

  /** The flow that refused. */
  public String flow() {
    return flow;
  }

  /** The stage that refused: receiver, flow, dispatcher, async or auto. */
  public String stage() {
    return stage;
  }
}
