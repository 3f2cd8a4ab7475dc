package io.sluice.core.file;

/** How the file sink writes. */
public enum WriteMode {
  /** Replaces the file atomically (written aside, then moved into place). */
  OVERWRITE,
  /** Appends to the file, creating it if needed. */
  APPEND,
  /** Creates the file; fails if it exists. */
  CREATE_NEW
}
