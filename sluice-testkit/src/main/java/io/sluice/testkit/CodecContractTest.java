package io.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.sluice.core.serialization.spi.Codec;
import io.sluice.core.serialization.spi.CodecFactory;
import io.sluice.core.serialization.spi.CorruptRecordException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link Codec} keeps, to extend once per implementation: decoding gives back
 * exactly the bytes encoded, whatever they are; truncated, corrupt or mislabelled input fails with
 * {@link CorruptRecordException} (or, for bytes a codec cannot check, decodes to the declared
 * length, which the record's checksum then catches) and never allocates more than declared; one
 * instance serves 64 virtual threads.
 *
 * <p>A subclass gives the factory ({@link #factory}); a codec that stores bytes as they are says so
 * with {@link #compresses}.
 */
public abstract class CodecContractTest {

  /** How many virtual threads share one codec at once. */
  protected static final int THREADS = 64;

  /** The codec under test at its default level. */
  protected final Codec codec = factory().create(null);

  /** The factory of the codec under test. */
  protected abstract CodecFactory factory();

  /** Whether the codec makes repetitive input smaller; true unless overridden. */
  protected boolean compresses() {
    return true;
  }

  /** {@code size} bytes of repetitive UTF-8 text, non-Latin characters included. */
  protected static byte[] text(int size) {
    byte[] line =
        "Sluice moves records from queue to queue; olá, 世界. ".getBytes(StandardCharsets.UTF_8);
    byte[] data = new byte[size];
    for (int i = 0; i < size; i++) {
      data[i] = line[i % line.length];
    }
    return data;
  }

  /** {@code size} random bytes, the same for the same size. */
  protected static byte[] random(int size) {
    byte[] data = new byte[size];
    new Random(42).nextBytes(data);
    return data;
  }

  private byte[] roundTrip(byte[] data) {
    return codec.decode(codec.encode(data), data.length);
  }

  @Test
  void itsNameIsItsFactorysAndItsIdFitsARecordHeader() {
    assertThat(codec.name()).isEqualTo(factory().name());
    assertThat(codec.id()).isBetween(0, 255);
  }

  @Test
  void emptyInputDecodesToEmpty() {
    assertThat(roundTrip(new byte[0])).isEmpty();
  }

  @Test
  void aSingleByteDecodesToItself() {
    assertThat(roundTrip(new byte[] {-128})).containsExactly(-128);
  }

  @Test
  void aMegabyteOfTextDecodesToItself() {
    byte[] data = text(1 << 20);
    byte[] encoded = codec.encode(data);

    assertThat(codec.decode(encoded, data.length)).isEqualTo(data);
    if (compresses()) {
      assertThat(encoded.length).isLessThan(data.length / 4);
    }
  }

  @Test
  void aMegabyteOfIncompressibleBytesDecodesToItself() {
    byte[] data = random(1 << 20);
    assertThat(roundTrip(data)).isEqualTo(data);
  }

  @Test
  void aDeclaredLengthThatDoesNotMatchIsACorruptRecord() {
    byte[] data = text(10_000);
    byte[] encoded = codec.encode(data);

    for (int declared : new int[] {data.length - 1, data.length + 1, 0}) {
      assertThatThrownBy(() -> codec.decode(encoded, declared))
          .as("declared %d of %d", declared, data.length)
          .isInstanceOf(CorruptRecordException.class);
    }
  }

  @Test
  void aNegativeDeclaredLengthIsACorruptRecord() {
    byte[] encoded = codec.encode(text(1000));
    assertThatThrownBy(() -> codec.decode(encoded, -1)).isInstanceOf(CorruptRecordException.class);
  }

  @Test
  void smallInputDeclaringSixtyFourMebibytesIsACorruptRecord() {
    byte[] encoded = codec.encode(text(1000));
    assertThatThrownBy(() -> codec.decode(encoded, 64 * 1024 * 1024))
        .isInstanceOf(CorruptRecordException.class);
  }

  @Test
  void everyTruncationIsACorruptRecord() {
    byte[] data = text(5_000);
    byte[] encoded = codec.encode(data);
    for (int length = 0; length < encoded.length; length++) {
      byte[] prefix = Arrays.copyOf(encoded, length);
      assertThat(catchThrowable(() -> codec.decode(prefix, data.length)))
          .as("the first %d of %d bytes", length, encoded.length)
          .isInstanceOf(CorruptRecordException.class);
    }
  }

  @Test
  void everyCorruptByteIsACorruptRecordOrDecodesToTheDeclaredLength() {
    byte[] data = text(5_000);
    byte[] encoded = codec.encode(data);
    for (int i = 0; i < encoded.length; i++) {
      for (int flip : new int[] {0x01, 0x80, 0xFF}) {
        byte[] corrupt = encoded.clone();
        corrupt[i] ^= (byte) flip;
        byte[][] decoded = new byte[1][];
        Throwable thrown = catchThrowable(() -> decoded[0] = codec.decode(corrupt, data.length));
        if (thrown != null) {
          assertThat(thrown)
              .as("byte %d xor %d", i, flip)
              .isInstanceOf(CorruptRecordException.class);
        } else {
          // A flipped literal still decodes; the record's checksum catches it.
          assertThat(decoded[0]).as("byte %d xor %d", i, flip).hasSize(data.length);
        }
      }
    }
  }

  @Test
  void randomBytesAreACorruptRecord() {
    assertThatThrownBy(() -> codec.decode(random(100), 1000))
        .isInstanceOf(CorruptRecordException.class);
  }

  @Test
  void sixtyFourVirtualThreadsShareOneCodec() throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Integer>> results = new ArrayList<>();
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        results.add(
            executor.submit(
                () -> {
                  start.await();
                  int equal = 0;
                  for (int i = 0; i < 20; i++) {
                    byte[] data = text(1000 + thread * 37 + i);
                    if (Arrays.equals(roundTrip(data), data)) {
                      equal++;
                    }
                  }
                  return equal;
                }));
      }
      start.countDown();
      for (Future<Integer> result : results) {
        assertThat(result.get()).isEqualTo(20);
      }
    }
  }
}
