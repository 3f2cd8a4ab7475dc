package io.sluice.core.file;

/** What the file source does with a file once its flow has finished it successfully. */
public enum AfterRead {
  /** Deletes it. */
  DELETE,
  /** Moves it to the {@code moveTo} directory. */
  MOVE
}
