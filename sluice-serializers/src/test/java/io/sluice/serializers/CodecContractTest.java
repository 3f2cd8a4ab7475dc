package io.sluice.serializers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.sluice.core.serialization.CorruptRecordException;
import io.sluice.core.spi.Codec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** What every {@link Codec} in this module must do. */
abstract class CodecContractTest {

  abstract Codec codec();

  final Codec codec = codec();

  static byte[] text(int size) {
    byte[] line =
        "Sluice moves records from queue to queue; olá, 世界. ".getBytes(StandardCharsets.UTF_8);
    byte[] data = new byte[size];
    for (int i = 0; i < size; i++) {
      data[i] = line[i % line.length];
    }
    return data;
  }

  static byte[] random(int size) {
    byte[] data = new byte[size];
    new Random(42).nextBytes(data);
    return data;
  }

  @Test
  void emptyInputRoundTrips() {
    assertThat(codec.decode(codec.encode(new byte[0]), 0)).isEmpty();
  }

  @Test
  void aMegabyteOfTextRoundTripsSmaller() {
    byte[] data = text(1 << 20);
    byte[] encoded = codec.encode(data);

    assertThat(encoded.length).isLessThan(data.length / 4);
    assertThat(codec.decode(encoded, data.length)).isEqualTo(data);
  }

  @Test
  void aMegabyteOfIncompressibleBytesRoundTrips() {
    byte[] data = random(1 << 20);
    assertThat(codec.decode(codec.encode(data), data.length)).isEqualTo(data);
  }

  @Test
  void aWrongOriginalLengthIsCorrupt() {
    byte[] data = text(10_000);
    byte[] encoded = codec.encode(data);

    assertThatThrownBy(() -> codec.decode(encoded, data.length - 1))
        .isInstanceOf(CorruptRecordException.class);
    assertThatThrownBy(() -> codec.decode(encoded, data.length + 1))
        .isInstanceOf(CorruptRecordException.class);
    assertThatThrownBy(() -> codec.decode(encoded, -1)).isInstanceOf(CorruptRecordException.class);
  }

  @Test
  void everyTruncationIsCorrupt() {
    byte[] data = text(5_000);
    byte[] encoded = codec.encode(data);
    for (int length = 0; length < encoded.length; length++) {
      byte[] truncated = Arrays.copyOf(encoded, length);
      int at = length;
      assertThatThrownBy(() -> codec.decode(truncated, data.length))
          .as("truncated to %d of %d bytes", at, encoded.length)
          .isInstanceOf(CorruptRecordException.class);
    }
  }

  @Test
  void corruptInputIsCorruptOrDecodesToTheRightLength() {
    byte[] data = text(5_000);
    byte[] encoded = codec.encode(data);
    for (int i = 0; i < encoded.length; i++) {
      for (int flip : new int[] {0x01, 0x80, 0xFF}) {
        byte[] corrupt = encoded.clone();
        corrupt[i] ^= (byte) flip;
        try {
          // Flipped literal bytes still decode; the record checksum catches those.
          assertThat(codec.decode(corrupt, data.length)).hasSize(data.length);
        } catch (CorruptRecordException expected) {
          // the contract
        } catch (RuntimeException e) {
          fail("byte " + i + " xor " + flip + ": expected CorruptRecordException, got " + e, e);
        }
      }
    }
  }

  @Test
  void garbageIsCorrupt() {
    assertThatThrownBy(() -> codec.decode(random(100), 1000))
        .isInstanceOf(CorruptRecordException.class);
  }
}
