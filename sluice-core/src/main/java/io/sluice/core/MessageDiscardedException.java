package io.sluice.core;

/**
 * A flow dropped a message: its stage was full and its exhausted action (or {@code auto}'s
 * backpressure) is DISCARD, or DISCARD_OLDEST and the message had waited longest. Unlike the other
 * refusals, the message is not to be delivered again: a queue listener ends it (the in-memory one
 * drops the entry, the persistent one acknowledges it) instead of putting it back, which would only
 * have it discarded again. A source that cannot drop what it holds (a file) keeps it, as for any
 * {@link FlowBusyException}.
 */
public class MessageDiscardedException extends FlowBusyException {

  /** The stage {@code stage} of flow {@code flow} discarded a message; {@code state} says why. */
  public MessageDiscardedException(String flow, String stage, String state) {
    this(flow, stage, state, ExhaustedAction.DISCARD);
  }

  /**
   * The stage {@code stage} of flow {@code flow} discarded a message under {@code action} (DISCARD:
   * the new message; DISCARD_OLDEST: the one that waited longest); {@code state} says why.
   */
  public MessageDiscardedException(
      String flow, String stage, String state, ExhaustedAction action) {
    super(
        flow,
        stage,
        "Flow '"
            + flow
            + "' discarded a message: its "
            + stage
            + " stage was full ("
            + state
            + ") and its exhausted action is "
            + action
            + (action == ExhaustedAction.DISCARD_OLDEST
                ? ", which drops the message that waited longest to make room for a new one"
                : "")
            + ". Raise the stage's maxThreadsActive or maxQueue, or choose WAIT or REJECT to keep"
            + " such messages.",
        true);
  }
}
