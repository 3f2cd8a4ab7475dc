package io.sluice.core.store;

import java.nio.file.Path;

/**
 * An embedded store that another process (or another storage of this one) has open: one process
 * owns a SQLite file at a time. Whoever wanted it may reach the owner instead (the {@code sluice}
 * commands ask a {@code sluice run} through its management port).
 */
public class StoreHeldException extends StoreException {

  private final transient Path file;

  /** The store {@code file} is held; {@code message} says by what and what to do. */
  public StoreHeldException(String message, Path file) {
    super(message);
    this.file = file;
  }

  /** The store's file. */
  public Path file() {
    return file;
  }
}
