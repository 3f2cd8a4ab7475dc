package io.sluice.serializers;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.serialization.spi.CorruptRecordException;
import io.sluice.core.serialization.spi.ObjectSerializer;
import io.sluice.core.serialization.spi.SerializerSettings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Records that declare a billion elements in a few bytes fail on the declared size, before Kryo
 * allocates for it. The byte layouts are Kryo 5's, written by hand from what {@link KryoSerializer}
 * writes for small values (class id, reference marker, size varint, elements).
 */
class KryoHostileLengthTest {

  private final ObjectSerializer kryo = new KryoSerializer(SerializerSettings.defaults());

  private static byte[] bytes(int... values) {
    byte[] bytes = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      bytes[i] = (byte) values[i];
    }
    return bytes;
  }

  private void assertRefusedBeforeAllocating(byte[] hostile) {
    assertThatThrownBy(() -> kryo.deserialize(hostile, getClass().getClassLoader()))
        .isInstanceOf(CorruptRecordException.class)
        .hasMessageContaining("exceeds");
  }

  @Test
  void aByteArrayDeclaringABillionBytesIsRefused() {
    // written: 22 (byte[]), 1 (not a back reference), 4 (length + 1), 7, 7, 7
    assertRefusedBeforeAllocating(bytes(22, 1, 0x81, 0x80, 0x80, 0x80, 0x04, 7, 7, 7));
  }

  @Test
  void anArrayListDeclaringABillionElementsIsRefused() {
    byte[] small = kryo.serialize(new ArrayList<>(List.of(7, 7, 7)));
    // written: 28 (ArrayList), 1, 0x84 (flagged size varint), element class, 14, 14, 14
    assertRefusedBeforeAllocating(
        bytes(28, 1, 0xC0, 0x80, 0x80, 0x80, 0x08, small[3], small[4], 14, 14, 14));
  }

  @Test
  void aHashMapDeclaringABillionEntriesIsRefused() {
    byte[] small = kryo.serialize(new HashMap<>(Map.of(7, 7)));
    // written: 31 (HashMap), 1, 2 (size), then the entry
    byte[] hostile = new byte[small.length + 4];
    hostile[0] = small[0];
    hostile[1] = small[1];
    System.arraycopy(bytes(0x80, 0x80, 0x80, 0x80, 0x04), 0, hostile, 2, 5);
    System.arraycopy(small, 3, hostile, 7, small.length - 3);
    assertRefusedBeforeAllocating(hostile);
  }

  @Test
  void aStringDeclaringABillionCharactersIsRefused() {
    // written: 3 (String), 1, 0x84 (UTF-8 flag, 3 chars + 1), é é é
    assertRefusedBeforeAllocating(
        bytes(3, 1, 0xC0, 0x80, 0x80, 0x80, 0x08, 0xC3, 0xA9, 0xC3, 0xA9, 0xC3, 0xA9));
  }

  @Test
  void anObjectArrayDeclaringABillionElementsIsRefused() {
    byte[] small = kryo.serialize(new Integer[] {7, 7, 7});
    // written: the class by name, 1, 4 (length + 1), elements; replace the length
    int at = small.length - 7;
    byte[] hostile = new byte[small.length + 4];
    System.arraycopy(small, 0, hostile, 0, at);
    System.arraycopy(bytes(0x81, 0x80, 0x80, 0x80, 0x04), 0, hostile, at, 5);
    System.arraycopy(small, at + 1, hostile, at + 5, small.length - at - 1);
    assertRefusedBeforeAllocating(hostile);
  }
}
