package io.sluice.core.internal;

/** Work handed to a stage, told when the stage refuses it so its message is never left hanging. */
interface StageTask extends Runnable {

  /** The stage did not take this task; {@code reason} says why. */
  void refused(RuntimeException reason);

  /**
   * Whether the thread handing this task over may wait for room or run it itself; false for a
   * message a source offered ({@link io.sluice.core.spi.SourceContext#offer}), which a full stage
   * refuses at once instead.
   */
  default boolean mayWait() {
    return true;
  }
}
