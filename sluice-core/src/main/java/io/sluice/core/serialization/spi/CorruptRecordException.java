package io.sluice.core.serialization.spi;

/**
 * Stored bytes are not a valid record: bad magic, unknown serializer or codec id, lengths that do
 * not add up or exceed the maximum, a checksum that does not match, or bytes a codec cannot decode.
 * Nothing is allocated for a record that declares more than the maximum size.
 */
public class CorruptRecordException extends SerializationException {

  private final RecordFault fault;

  /** The record is corrupt, as {@code message} says. */
  public CorruptRecordException(String message) {
    this(RecordFault.CORRUPT, message, null);
  }

  /** The record is corrupt, as {@code message} says, found through {@code cause}. */
  public CorruptRecordException(String message, Throwable cause) {
    this(RecordFault.CORRUPT, message, cause);
  }

  /** The record cannot be read because of {@code fault}, as {@code message} says. */
  public CorruptRecordException(RecordFault fault, String message) {
    this(fault, message, null);
  }

  /** The record cannot be read because of {@code fault}, as {@code message} says. */
  public CorruptRecordException(RecordFault fault, String message, Throwable cause) {
    super(message, cause);
    this.fault = java.util.Objects.requireNonNull(fault, "fault");
  }

  @Override
  public RecordFault fault() {
    return fault;
  }
}
