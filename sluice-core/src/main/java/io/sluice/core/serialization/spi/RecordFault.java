package io.sluice.core.serialization.spi;

/**
 * Why a stored record could not be read, in a few words: what a dead letter, a failed batch record
 * or a warning says before the full message ({@link SerializationException#fault()}).
 */
public enum RecordFault {
  /** Fewer bytes than the header or the header's lengths promise. */
  TRUNCATED("truncated"),
  /** The bytes do not give the checksum the header holds: a flipped bit or byte. */
  CHECKSUM_MISMATCH("checksum mismatch"),
  /** The value names a class the allow-list does not admit. */
  CLASS_NOT_ALLOWED("class not allowed"),
  /** The header names a serializer that is not installed. */
  UNKNOWN_SERIALIZER("unknown serializer"),
  /** The header names a codec that is not installed. */
  UNKNOWN_CODEC("unknown codec"),
  /** Written by a newer header or serializer format version than this one reads. */
  NEWER_FORMAT("newer format"),
  /** Declares more bytes than {@code serialization.maxSize}. */
  TOO_LARGE("too large"),
  /** Does not start with the magic of a Sluice stored value. */
  NOT_A_RECORD("not a stored value"),
  /** A consistent header, but bytes the codec or the serializer cannot make sense of. */
  CORRUPT("corrupt"),
  /** The serializer failed in a way it did not classify. */
  UNREADABLE("unreadable"),
  /** No bytes are stored at all where a record should be (a queue message's payload row gone). */
  MISSING("missing");

  private final String label;

  RecordFault(String label) {
    this.label = label;
  }

  /** The fault in a few lower-case words ({@code checksum mismatch}). */
  public String label() {
    return label;
  }
}
