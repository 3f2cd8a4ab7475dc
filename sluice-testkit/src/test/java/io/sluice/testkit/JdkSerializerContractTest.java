package io.sluice.testkit;

import io.sluice.core.serialization.JdkSerializerFactory;
import io.sluice.core.serialization.spi.ObjectSerializer;
import io.sluice.core.serialization.spi.SerializerFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.example.notallowed.Gadget;

/** The serializer contract, run against JDK serialization. */
class JdkSerializerContractTest extends ObjectSerializerContractTest {

  @Override
  protected SerializerFactory factory() {
    return new JdkSerializerFactory();
  }

  /**
   * JDK serialization cannot write a {@code Runtime}, which is not serializable: the bytes of a
   * {@link Gadget} with the class descriptor's name replaced, as an attacker would forge them.
   */
  @Override
  protected byte[] bytesNaming(String className, ClassLoader standIns) {
    if (!className.startsWith("java.")) {
      return super.bytesNaming(className, standIns);
    }
    ObjectSerializer permissive = create(allowing(List.of(Gadget.class.getName()), 1 << 20));
    return renameClass(permissive.serialize(new Gadget()), Gadget.class.getName(), className);
  }

  /** The stream with a class descriptor's name replaced, its modified-UTF-8 length too. */
  private static byte[] renameClass(byte[] stream, String from, String to) {
    byte[] old = withLength(from);
    byte[] replacement = withLength(to);
    for (int i = 0; i <= stream.length - old.length; i++) {
      if (Arrays.equals(stream, i, i + old.length, old, 0, old.length)) {
        byte[] result = new byte[stream.length - old.length + replacement.length];
        System.arraycopy(stream, 0, result, 0, i);
        System.arraycopy(replacement, 0, result, i, replacement.length);
        System.arraycopy(
            stream, i + old.length, result, i + replacement.length, stream.length - i - old.length);
        return result;
      }
    }
    throw new AssertionError(from + " is not in the stream");
  }

  private static byte[] withLength(String name) {
    byte[] utf = name.getBytes(StandardCharsets.UTF_8);
    byte[] result = new byte[utf.length + 2];
    result[0] = (byte) (utf.length >>> 8);
    result[1] = (byte) utf.length;
    System.arraycopy(utf, 0, result, 2, utf.length);
    return result;
  }
}
