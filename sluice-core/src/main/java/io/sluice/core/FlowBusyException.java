package io.sluice.core;

/**
 * A flow could not accept a message: its stage was full and its exhausted action (or {@code auto}'s
 * backpressure) said not to wait, waiting timed out, or the flow was not running. Nothing was
 * accepted, so nothing is lost: the source keeps the message (a file stays in its directory, a
 * queue keeps its entry) or answers its caller that the flow is busy. The message names the flow,
 * the stage, why, and the next step for that reason: the keys to raise for a full stage of a
 * threading profile, {@code maxInFlight} for {@code auto} (which has no pool to size), a start for
 * a flow that is not running.
 */
public class FlowBusyException extends SluiceException {

  /** Why the flow refused; each reason has its own advice. */
  public enum Reason {
    /** A stage of a threading profile was full and its exhausted action refuses (REJECT). */
    STAGE_FULL,
    /** A stage of a threading profile stayed full for its whole {@code waitTimeout} (WAIT). */
    WAIT_TIMED_OUT,
    /** A stage was full and the source cannot wait (an offered message: HTTP, a poller). */
    SOURCE_CANNOT_WAIT,
    /** An {@code auto} flow held {@code maxInFlight} messages. */
    IN_FLIGHT_LIMIT,
    /** The flow or the application is not running, or stopped before the message ran. */
    NOT_RUNNING,
    /** A batch job's loader holds as many records as it stores at once; the source offers again. */
    LOADER_FULL
  }

  private final String flow;
  private final String stage;
  private final Reason reason;

  /**
   * The stage {@code stage} of flow {@code flow} refused a message because it was full ({@link
   * Reason#STAGE_FULL}, or {@link Reason#IN_FLIGHT_LIMIT} for the stage {@code auto}); {@code
   * state} says how full.
   */
  public FlowBusyException(String flow, String stage, String state) {
    this(flow, stage, "auto".equals(stage) ? Reason.IN_FLIGHT_LIMIT : Reason.STAGE_FULL, state);
  }

  /** The stage {@code stage} of flow {@code flow} refused a message for {@code reason}. */
  public FlowBusyException(String flow, String stage, Reason reason, String state) {
    super(
        "Flow '"
            + flow
            + "' is busy: its "
            + stage
            + " stage refused a message ("
            + state
            + "). "
            + advice(reason, stage));
    this.flow = flow;
    this.stage = stage;
    this.reason = reason;
  }

  /** A refusal by {@code stage} of {@code flow} with its own {@code message}, for subclasses. */
  protected FlowBusyException(String flow, String stage, String message, boolean ownMessage) {
    super(message);
    this.flow = flow;
    this.stage = stage;
    this.reason = Reason.STAGE_FULL;
  }

  private static String advice(Reason reason, String stage) {
    boolean auto = "auto".equals(stage);
    return switch (reason) {
      case STAGE_FULL ->
          "Raise the stage's maxThreadsActive or maxQueue, or choose exhaustedAction WAIT.";
      case WAIT_TIMED_OUT ->
          "Raise the stage's maxThreadsActive or maxQueue, or its waitTimeout (Mule's"
              + " threadWaitTimeout).";
      case SOURCE_CANNOT_WAIT ->
          "The source answers busy rather than wait (an HTTP listener answers 503, a poller"
              + " tries again): "
              + (auto
                  ? "raise the flow's maxInFlight (under strategy auto)."
                  : "raise the stage's maxThreadsActive or maxQueue, or let the flow run with"
                      + " strategy auto.");
      case IN_FLIGHT_LIMIT ->
          "Raise the flow's maxInFlight (under strategy auto), or choose backpressure WAIT;"
              + " auto sizes its own threads, so there is no pool to raise.";
      case NOT_RUNNING ->
          "Send it again once the flow runs: start the application (or the flow) first; a"
              + " source's message stays with its source.";
      case LOADER_FULL -> "The source offers it again once the loader has stored what it holds.";
    };
  }

  /** The flow that refused. */
  public String flow() {
    return flow;
  }

  /** The stage that refused: receiver, flow, dispatcher, async or auto. */
  public String stage() {
    return stage;
  }

  /** Why it refused. */
  public Reason reason() {
    return reason;
  }
}
