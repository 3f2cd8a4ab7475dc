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
  DISCARD
}
