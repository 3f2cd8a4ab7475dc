package io.sluice.core.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.sluice.core.serialization.spi.ClassNotAllowedException;
import io.sluice.core.serialization.spi.CorruptRecordException;
import io.sluice.core.serialization.spi.RecordFault;
import io.sluice.core.serialization.spi.SerializationException;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CorruptRecordsAreRefusedTest {

  private final StoredValues stored = StoredValues.create(SerializationConfig.defaults());

  private static byte[] small(String codec) {
    return Fixtures.storedValues("jdk", codec).write(List.of("a", 1));
  }

  @ParameterizedTest
  @ValueSource(strings = {"none", "deflate", "gzip"})
  void everyTruncationOfARecordIsACorruptRecord(String codec) {
    byte[] record = small(codec);
    for (int length = 0; length < record.length; length++) {
      byte[] prefix = Arrays.copyOf(record, length);
      assertThat(catchThrowable(() -> stored.read(prefix)))
          .as("prefix of %d of %d bytes", length, record.length)
          .isExactlyInstanceOf(CorruptRecordException.class)
          .hasMessageContaining("A record of " + length + " bytes")
          .satisfies(fault(RecordFault.TRUNCATED));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"none", "deflate", "gzip"})
  void everyFlippedBitOfARecordIsACorruptRecord(String codec) {
    byte[] record = small(codec);
    for (int at = 0; at < record.length; at++) {
      for (int bit = 0; bit < 8; bit++) {
        byte[] flipped = record.clone();
        flipped[at] ^= (byte) (1 << bit);
        assertThat(catchThrowable(() -> stored.read(flipped)))
            .as("bit %d of byte %d", bit, at)
            .isExactlyInstanceOf(CorruptRecordException.class);
      }
    }
  }

  @Test
  void extraBytesAfterARecordAreRefused() {
    byte[] record = small("none");
    byte[] longer = Arrays.copyOf(record, record.length + 3);
    assertThatThrownBy(() -> stored.read(longer))
        .isExactlyInstanceOf(CorruptRecordException.class)
        .hasMessageContaining("followed by other bytes")
        .satisfies(fault(RecordFault.CORRUPT));
  }

  @Test
  void aHeaderDeclaringTwoGigabytesIsRefusedBeforeAnythingIsAllocated() {
    byte[] record = small("deflate");
    RecordHeader.putI32(record, 6, Integer.MIN_VALUE); // 2^31 unsigned
    assertThatThrownBy(() -> stored.read(record))
        .isExactlyInstanceOf(CorruptRecordException.class)
        .hasMessageContaining("declares 2147483648 serialized bytes")
        .hasMessageContaining("more than serialization.maxSize 67108864")
        .hasMessageContaining("refused before reading it")
        .satisfies(fault(RecordFault.TOO_LARGE));
  }

  @Test
  void aForgedLengthUnderTheMaximumWithAValidChecksumIsRefusedByTheCodec() {
    byte[] record = small("deflate");
    RecordHeader.putI32(record, 6, 60 * 1024 * 1024);
    resign(record);
    assertThatThrownBy(() -> stored.read(record))
        .isExactlyInstanceOf(CorruptRecordException.class)
        .hasMessageContaining("cannot restore 62914560 bytes")
        .satisfies(fault(RecordFault.CORRUPT));
  }

  @Test
  void aForgedShorterLengthWithAValidChecksumIsRefusedByTheCodec() {
    for (String codec : List.of("none", "deflate", "gzip")) {
      byte[] record = small(codec);
      RecordHeader header = stored.peek(record);
      RecordHeader.putI32(record, 6, (int) header.originalLength() - 1);
      resign(record);
      assertThatThrownBy(() -> stored.read(record))
          .as(codec)
          .isExactlyInstanceOf(CorruptRecordException.class)
          .hasMessageContaining(String.valueOf(header.originalLength() - 1))
          .hasMessageContaining("header declares");
    }
  }

  @Test
  void bytesThatAreNotARecordAreNamedAsSuch() {
    byte[] notARecord = "{\"json\": \"is not a record\"}".getBytes();
    assertThatThrownBy(() -> stored.read(notARecord))
        .isExactlyInstanceOf(CorruptRecordException.class)
        .hasMessageContaining("not the magic 0x534C")
        .satisfies(fault(RecordFault.NOT_A_RECORD));
  }

  @Test
  void aNewerHeaderVersionSaysItWasWrittenByANewerSluice() {
    byte[] record = small("none");
    record[2] = 2;
    assertThatThrownBy(() -> stored.read(record))
        .isExactlyInstanceOf(CorruptRecordException.class)
        .hasMessageContaining("header version 2; this Sluice reads version 1")
        .hasMessageContaining("newer Sluice")
        .satisfies(fault(RecordFault.NEWER_FORMAT));
  }

  @Test
  void aRecordOfKryoWithoutTheModuleSaysWhichModuleToAdd() {
    byte[] record = small("none");
    record[3] = 2;
    assertThatThrownBy(() -> stored.read(record))
        .isExactlyInstanceOf(CorruptRecordException.class)
        .hasMessageContaining("serializer id 2, which is not installed; installed: [jdk (1)]")
        .hasMessageContaining("add it")
        .satisfies(fault(RecordFault.UNKNOWN_SERIALIZER));
    assertThat(stored.peek(record).serializerId()).isEqualTo(2);
  }

  @Test
  void aRecordOfZstdWithoutTheModuleSaysWhichModuleToAdd() {
    byte[] record = small("none");
    record[5] = 4;
    assertThatThrownBy(() -> stored.read(record))
        .isExactlyInstanceOf(CorruptRecordException.class)
        .hasMessageContaining("codec id 4, which is not installed")
        .hasMessageContaining("deflate (1)")
        .hasMessageContaining("zstd) come with sluice-serializers")
        .satisfies(fault(RecordFault.UNKNOWN_CODEC));
  }

  @Test
  void aNewerFormatVersionOfAKnownSerializerIsRefused() {
    byte[] record = small("none");
    record[4] = 7;
    assertThatThrownBy(() -> stored.read(record))
        .isExactlyInstanceOf(CorruptRecordException.class)
        .hasMessageContaining("format version 7 of serializer 'jdk', which reads versions up to 1")
        .satisfies(fault(RecordFault.NEWER_FORMAT));
  }

  @Test
  void aDamagedPayloadFailsTheChecksum() {
    byte[] record = small("none");
    record[record.length - 1] ^= 0x20;
    assertThatThrownBy(() -> stored.read(record))
        .isExactlyInstanceOf(CorruptRecordException.class)
        .hasMessageContaining("fails its checksum")
        .satisfies(fault(RecordFault.CHECKSUM_MISMATCH))
        .satisfies(
            e ->
                assertThat(((SerializationException) e).reason())
                    .startsWith("checksum mismatch: A record of "));
  }

  @Test
  void aClassOutsideTheAllowListSaysSo() {
    byte[] record =
        StoredValues.create(SerializationConfig.builder().allow("io.sluice.*", "java.*").build())
            .write(new java.io.File("x"));
    assertThatThrownBy(() -> stored.read(record))
        .isExactlyInstanceOf(ClassNotAllowedException.class)
        .satisfies(fault(RecordFault.CLASS_NOT_ALLOWED));
  }

  /** Checks that a failed read says {@code expected} is why. */
  private static Consumer<Throwable> fault(RecordFault expected) {
    return e -> assertThat(((SerializationException) e).fault()).isEqualTo(expected);
  }

  /** Recomputes the checksum, as a forger would. */
  private static void resign(byte[] record) {
    CRC32C crc = new CRC32C();
    crc.update(record, 0, RecordHeader.CHECKSUM_OFFSET);
    crc.update(record, RecordHeader.SIZE, record.length - RecordHeader.SIZE);
    RecordHeader.putI32(record, RecordHeader.CHECKSUM_OFFSET, (int) crc.getValue());
  }
}
