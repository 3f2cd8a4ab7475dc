package io.sluice.core;

/** What a stage does with a message when all its threads are busy and its queue is full. */
public enum ExhaustedAction {
  /** The caller waits for room, up to the profile's wait timeout, then the message is refused. */
  WAIT,
  /** The message is refused at once; the source keeps it or answers busy. */
  REJECT,
  /** The caller's own thread processes the message: the source slows down by itself. */
  CALLER_RUNS,
  /**
   * The message is dropped and counted ({@code sluice.stage.discarded}); the source is told with a
   * {@link MessageDiscardedException} and does not deliver it again (a file source keeps its file).
   */
  DISCARD,
  /**
   * The message that has waited longest in the queue is dropped to make room for the new one
   * (Mule's {@code DISCARD_OLDEST}): the dropped one ends as under {@link #DISCARD}, counted and
   * told with a {@link MessageDiscardedException}. Needs a queue ({@code maxQueue} of at least 1);
   * not for {@code auto}'s backpressure, which has no queue to drop from.
   */
  DISCARD_OLDEST
}
