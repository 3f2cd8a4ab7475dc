package io.sluice.core.serialization.spi;

import io.sluice.core.serialization.PostDeserialize;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * An object serializer turns values into bytes and back: JDK serialization, Kryo, Fory, or one of a
 * user's. Implementations are thread-safe (one instance serves every thread, virtual ones included:
 * pool what is not thread-safe, never keep it in a ThreadLocal), refuse classes their {@link
 * io.sluice.core.serialization.spi.SerializerSettings#allowList() allow-list} does not admit, and
 * call {@link PostDeserialize#apply} on what they return.
 *
 * <p>Stored values carry the serializer's {@link #id()} and {@link #formatVersion()} in their
 * header, so data written by one serializer stays readable after the default changes.
 */
public interface ObjectSerializer {

  /** The name used in configuration: {@code jdk}, {@code kryo}, {@code fory}. */
  String name();

  /**
   * The id stored in every record header, 1 to 255, never reused for another serializer: 1 jdk, 2
   * kryo, 3 fory; 128 and above are left to users.
   */
  int id();

  /**
   * The version of this serializer's byte format, stored in every record header. Raise it when the
   * bytes written change so that older readers cannot read them.
   */
  int formatVersion();

  /** Writes {@code value} (null included) to {@code out}; does not close it. */
  void serialize(Object value, OutputStream out) throws IOException;

  /**
   * Reads one value from {@code in}, resolving classes with {@code loader}; does not close it. A
   * class the allow-list refuses fails with {@link
   * io.sluice.core.serialization.spi.ClassNotAllowedException} before it is instantiated.
   */
  Object deserialize(InputStream in, ClassLoader loader) throws IOException;

  /** The value as bytes. */
  default byte[] serialize(Object value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try {
      serialize(value, out);
    } catch (IOException e) {
      throw new SerializationException(
          "Serializer '"
              + name()
              + "' could not write a "
              + (value == null ? "null" : value.getClass().getName())
              + ": "
              + e.getMessage(),
          e);
    }
    return out.toByteArray();
  }

  /** Reads a value from bytes with the thread's context class loader (or this class's). */
  default Object deserialize(byte[] bytes) {
    return deserialize(bytes, defaultLoader());
  }

  /** Reads a value from bytes, resolving classes with {@code loader}. */
  default Object deserialize(byte[] bytes, ClassLoader loader) {
    try {
      return deserialize(new ByteArrayInputStream(bytes), loader);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads one value from {@code in} with the thread's context class loader (or this class's). */
  default Object deserialize(InputStream in) throws IOException {
    return deserialize(in, defaultLoader());
  }

  /** The thread's context class loader, or the one that loaded this serializer. */
  default ClassLoader defaultLoader() {
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    return context != null ? context : getClass().getClassLoader();
  }
}
