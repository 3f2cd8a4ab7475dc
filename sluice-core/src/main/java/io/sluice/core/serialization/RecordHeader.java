package io.sluice.core.serialization;

import io.sluice.core.serialization.spi.CorruptRecordException;
import io.sluice.core.serialization.spi.RecordFault;

/**
 * The 18-byte header every stored value starts with, big-endian: magic {@code 0x53 0x4C} ("SL"),
 * header version, serializer id, serializer format version, codec id, original (serialized) length
 * (4), encoded length (4), CRC32C (4) of header bytes 0 to 13 and the encoded bytes. Lengths are
 * unsigned.
 *
 * @param headerVersion the layout version of the header ({@value #VERSION} today)
 * @param serializerId the id of the serializer that wrote the value
 * @param formatVersion that serializer's format version when it wrote the value
 * @param codecId the id of the codec that encoded the serialized bytes
 * @param originalLength the length of the serialized bytes, before encoding
 * @param encodedLength the length of the encoded bytes that follow the header
 * @param checksum the CRC32C stored in the header
 */
public record RecordHeader(
    int headerVersion,
    int serializerId,
    int formatVersion,
    int codecId,
    long originalLength,
    long encodedLength,
    int checksum) {

  /** The header's length in bytes. */
  public static final int SIZE = 18;

  /** The header version written today. */
  public static final int VERSION = 1;

  /** The first two bytes of every record. */
  static final int MAGIC = 0x534C;

  /** Where the checksum starts; the checksum covers the bytes before it. */
  static final int CHECKSUM_OFFSET = 14;

  /** Reads the header of {@code record}, checking its length, magic and version. */
  static RecordHeader parse(byte[] record) {
    if (record.length < SIZE) {
      throw new CorruptRecordException(
          RecordFault.TRUNCATED,
          "A record of "
              + record.length
              + " bytes is shorter than the "
              + SIZE
              + "-byte header: it is truncated");
    }
    int magic = u16(record, 0);
    if (magic != MAGIC) {
      throw new CorruptRecordException(
          RecordFault.NOT_A_RECORD,
          String.format(
              "A record of %d bytes starts with 0x%04X, not the magic 0x%04X: it is not a Sluice"
                  + " stored value",
              record.length, magic, MAGIC));
    }
    int version = record[2] & 0xFF;
    if (version != VERSION) {
      throw new CorruptRecordException(
          version > VERSION ? RecordFault.NEWER_FORMAT : RecordFault.CORRUPT,
          "A record of "
              + record.length
              + " bytes has header version "
              + version
              + "; this Sluice reads version "
              + VERSION
              + (version > VERSION ? ": it was written by a newer Sluice" : ""));
    }
    return new RecordHeader(
        version,
        record[3] & 0xFF,
        record[4] & 0xFF,
        record[5] & 0xFF,
        Integer.toUnsignedLong(i32(record, 6)),
        Integer.toUnsignedLong(i32(record, 10)),
        i32(record, CHECKSUM_OFFSET));
  }

  /** Writes a header (but its checksum) for these values at the start of {@code record}. */
  static void write(
      byte[] record, int serializerId, int formatVersion, int codecId, int originalLength) {
    record[0] = (byte) (MAGIC >>> 8);
    record[1] = (byte) MAGIC;
    record[2] = VERSION;
    record[3] = (byte) serializerId;
    record[4] = (byte) formatVersion;
    record[5] = (byte) codecId;
    putI32(record, 6, originalLength);
    putI32(record, 10, record.length - SIZE);
  }

  static void putI32(byte[] bytes, int at, int value) {
    bytes[at] = (byte) (value >>> 24);
    bytes[at + 1] = (byte) (value >>> 16);
    bytes[at + 2] = (byte) (value >>> 8);
    bytes[at + 3] = (byte) value;
  }

  private static int u16(byte[] bytes, int at) {
    return ((bytes[at] & 0xFF) << 8) | (bytes[at + 1] & 0xFF);
  }

  private static int i32(byte[] bytes, int at) {
    return ((bytes[at] & 0xFF) << 24)
        | ((bytes[at + 1] & 0xFF) << 16)
        | ((bytes[at + 2] & 0xFF) << 8)
        | (bytes[at + 3] & 0xFF);
  }
}
