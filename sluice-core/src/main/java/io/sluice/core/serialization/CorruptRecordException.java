package io.sluice.core.serialization;

/**
 * Stored bytes are not a valid record: bad magic, unknown serializer or codec id, lengths that do
 * not add up or exceed the maximum, a checksum that does not match, or bytes a codec cannot decode.
 * Nothing is allocated for a record that declares more than the maximum size.
 */
public class CorruptRecordException extends SerializationException {

  /** The record is corrupt, as {@code message} says. */
  public CorruptRecordException(String message) {
    super(message);
  }

  /** The record is corrupt, as {@code message} says, found through {@code cause}. */
  public CorruptRecordException(String message, Throwable cause) {
    super(message, cause);
  }
}
