package io.sluice.core.internal;

/** Work handed to a stage, told when the stage refuses it so its message is never left hanging. */
interface StageTask extends Runnable {

  /** The stage did not take this task; {@code reason} says why. */
  void refused(RuntimeException reason);
}
