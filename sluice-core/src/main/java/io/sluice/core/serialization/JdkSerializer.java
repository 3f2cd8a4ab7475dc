package io.sluice.core.serialization;

import io.sluice.core.SluiceException;
import io.sluice.core.io.BoundedInputStream;
import io.sluice.core.serialization.spi.ClassAllowList;
import io.sluice.core.serialization.spi.ClassNotAllowedException;
import io.sluice.core.serialization.spi.CorruptRecordException;
import io.sluice.core.serialization.spi.ObjectSerializer;
import io.sluice.core.serialization.spi.SerializationException;
import io.sluice.core.serialization.spi.SerializerSettings;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OptionalDataException;
import java.io.OutputStream;
import java.io.StreamCorruptedException;
import java.io.UTFDataFormatException;
import java.util.Arrays;
import java.util.Map;

/**
 * Java serialization behind a per-stream {@link ObjectInputFilter}. Classes are checked against the
 * allow-list when written too, so a value that could never be read back is refused at once.
 */
final class JdkSerializer implements ObjectSerializer {

  static final int ID = 1;
  static final int FORMAT_VERSION = 1;

  /** Array lengths may reach this many times the stream's length; see {@link Limits}. */
  static final long ARRAY_SLACK = 8;

  private static final Map<String, Class<?>> PRIMITIVES =
      Map.of(
          "boolean", boolean.class,
          "byte", byte.class,
          "char", char.class,
          "short", short.class,
          "int", int.class,
          "long", long.class,
          "float", float.class,
          "double", double.class,
          "void", void.class);

  private final SerializerSettings settings;

  JdkSerializer(SerializerSettings settings) {
    this.settings = settings;
  }

  @Override
  public String name() {
    return JdkSerializerFactory.NAME;
  }

  @Override
  public int id() {
    return ID;
  }

  @Override
  public int formatVersion() {
    return FORMAT_VERSION;
  }

  @Override
  public void serialize(Object value, OutputStream out) throws IOException {
    String refused;
    try (CheckedOutputStream objects = new CheckedOutputStream(new KeepOpen(out))) {
      objects.writeObject(value);
      refused = objects.refused;
    } catch (NotSerializableException e) {
      throw new SerializationException(
          "Serializer 'jdk' cannot write a "
              + e.getMessage()
              + ": it does not implement java.io.Serializable."
              + " Make it Serializable or choose another serializer (kryo, fory)",
          e);
    }
    if (refused != null) {
      throw new ClassNotAllowedException(refused);
    }
  }

  @Override
  public Object deserialize(InputStream in, ClassLoader loader) throws IOException {
    return read(in, loader, settings.maxBytes());
  }

  /** A byte array bounds what its stream may declare: see {@link Limits}. */
  @Override
  public Object deserialize(byte[] bytes, ClassLoader loader) {
    try {
      return read(
          new ByteArrayInputStream(bytes), loader, Math.min(settings.maxBytes(), bytes.length));
    } catch (IOException e) {
      throw new SerializationException("Serializer 'jdk' could not read: " + e.getMessage(), e);
    }
  }

  private Object read(InputStream in, ClassLoader loader, long limit) throws IOException {
    Limits limits = new Limits(settings, limit);
    Object value;
    try (FilteredInputStream objects =
        new FilteredInputStream(
            new BoundedInputStream(
                in,
                settings.maxBytes(),
                maxBytes ->
                    new SerializationException(
                        "Serializer 'jdk' refused the stream: it is longer than maxBytes "
                            + maxBytes
                            + " (serialization.maxSize)")),
            loader,
            limits,
            settings.allowList())) {
      value = objects.readObject();
    } catch (InvalidClassException e) {
      throw limits.explain(e);
    } catch (ClassNotFoundException e) {
      throw new SerializationException(
          "Serializer 'jdk' could not find class '"
              + e.getMessage()
              + "' with class loader "
              + loader
              + ". Is the module that defines it on the class path?",
          e);
    } catch (EOFException
        | StreamCorruptedException
        | OptionalDataException
        | UTFDataFormatException e) {
      throw new CorruptRecordException(
          "Serializer 'jdk' found a malformed stream: " + describe(e), e);
    } catch (SluiceException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new SerializationException(
          "Serializer 'jdk' could not read a value: " + describe(e), e);
    }
    try {
      return PostDeserialize.apply(value);
    } catch (RuntimeException e) {
      throw new SerializationException(
          "afterDeserialize of " + value.getClass().getName() + " failed: " + describe(e), e);
    }
  }

  private static String describe(Exception e) {
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + e.getMessage());
  }

  /** The filter of one stream; it remembers why it refused, for a precise error. */
  private static final class Limits implements ObjectInputFilter {
    private final ClassAllowList allowList;
    private final long maxDepth;
    private final long limit;
    private final long maxBytes;
    private String refusal;
    private String refusedClass;

    Limits(SerializerSettings settings, long limit) {
      this.allowList = settings.allowList();
      this.maxDepth = settings.maxDepth();
      this.maxBytes = settings.maxBytes();
      this.limit = limit;
    }

    @Override
    public Status checkInput(FilterInfo info) {
      if (info.depth() > maxDepth) {
        return refuse(
            "the object graph is deeper than maxDepth " + maxDepth + " (SerializerSettings)");
      }
      if (info.streamBytes() > maxBytes) {
        return refuse(
            "the stream is longer than maxBytes " + maxBytes + " (serialization.maxSize)");
      }
      // Every reference takes at least one byte of the stream, and so does every array element;
      // JDK collections size their tables up to 8 times their entries (HashSet with load factor
      // 0.25), hence the slack for arrays. Either way no forged length allocates much more than
      // the record it came in.
      if (info.references() > limit) {
        return refuse("the stream declares more than " + limit + " references");
      }
      if (info.arrayLength() > ARRAY_SLACK * limit) {
        return refuse(
            "an array declares "
                + info.arrayLength()
                + " elements, more than "
                + ARRAY_SLACK
                + " per byte of the "
                + limit
                + " bytes it can come from");
      }
      Class<?> type = info.serialClass();
      if (type != null) {
        if (!allowList.isAllowed(type.getName())) {
          refusedClass = type.getName();
          return Status.REJECTED;
        }
        return Status.ALLOWED;
      }
      return Status.UNDECIDED;
    }

    private Status refuse(String why) {
      refusal = why;
      return Status.REJECTED;
    }

    SerializationException explain(InvalidClassException e) {
      if (refusedClass != null) {
        ClassNotAllowedException refused = new ClassNotAllowedException(refusedClass);
        refused.initCause(e);
        return refused;
      }
      if (refusal != null) {
        return new SerializationException("Serializer 'jdk' refused the stream: " + refusal, e);
      }
      return new SerializationException(
          "Serializer 'jdk' could not read class " + e.classname + ": " + e.getMessage(), e);
    }
  }

  /**
   * Notes the first class the allow-list refuses rather than throwing: a throw here would make
   * ObjectOutputStream write the exception itself into the stream, whose classes are refused too.
   */
  private final class CheckedOutputStream extends ObjectOutputStream {
    String refused;

    CheckedOutputStream(OutputStream out) throws IOException {
      super(out);
    }

    @Override
    protected void annotateClass(Class<?> type) {
      if (refused == null && !settings.allowList().isAllowed(type.getName())) {
        refused = type.getName();
      }
    }

    @Override
    protected void annotateProxyClass(Class<?> type) {
      throw new SerializationException(
          "Serializer 'jdk' does not write dynamic proxies ("
              + Arrays.toString(type.getInterfaces())
              + ")");
    }
  }

  private static final class FilteredInputStream extends ObjectInputStream {
    private final ClassLoader loader;
    private final ClassAllowList allowList;

    FilteredInputStream(InputStream in, ClassLoader loader, Limits limits, ClassAllowList allowList)
        throws IOException {
      super(in);
      this.loader = loader;
      this.allowList = allowList;
      ObjectInputFilter global = ObjectInputFilter.Config.getSerialFilter();
      setObjectInputFilter(global == null ? limits : ObjectInputFilter.merge(limits, global));
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc) throws ClassNotFoundException {
      String name = desc.getName();
      // Checked by name first, so a refused class is never even loaded.
      allowList.check(name);
      Class<?> primitive = PRIMITIVES.get(name);
      return primitive != null ? primitive : Class.forName(name, false, loader);
    }

    @Override
    protected Class<?> resolveProxyClass(String[] interfaces) {
      throw new SerializationException(
          "Serializer 'jdk' never reads dynamic proxies (interfaces "
              + Arrays.toString(interfaces)
              + ")");
    }
  }

  /** Lets the object stream be closed (to flush it) without closing the caller's stream. */
  private static final class KeepOpen extends FilterOutputStream {
    KeepOpen(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}
