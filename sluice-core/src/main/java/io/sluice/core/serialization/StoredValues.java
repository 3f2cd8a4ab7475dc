package io.sluice.core.serialization;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.SluiceException;
import io.sluice.core.spi.Codec;
import io.sluice.core.spi.CodecFactory;
import io.sluice.core.spi.ObjectSerializer;
import io.sluice.core.spi.SerializerFactory;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * The format of every stored value: a {@link RecordHeader} naming the serializer and codec that
 * wrote it, then the encoded bytes. Stores and queues turn values into records with it and back.
 * Writing uses the default serializer and codec (or those named); reading uses those the header
 * names, so records stay readable after the defaults change. A record that is truncated, corrupt or
 * larger than {@code serialization.maxSize} fails with {@link CorruptRecordException}, checked
 * before anything is allocated for it.
 *
 * <p>Serializers and codecs come from {@link ServiceLoader} ({@link SerializerFactory}, {@link
 * CodecFactory}) and from {@link Builder#serializer}/{@link Builder#codec}. Immutable and
 * thread-safe; it logs nothing per record.
 */
public final class StoredValues {

  private final SerializationConfig config;
  private final Registry registry;
  private final ObjectSerializer serializer;
  private final Codec codec;

  private StoredValues(
      SerializationConfig config, Registry registry, ObjectSerializer serializer, Codec codec) {
    this.config = config;
    this.registry = registry;
    this.serializer = serializer;
    this.codec = codec;
  }

  /** Stored values with {@code config} and the serializers and codecs on the class path. */
  public static StoredValues create(SerializationConfig config) {
    return builder(config).build();
  }

  /** A builder, to add serializers and codecs or choose where they are discovered. */
  public static Builder builder(SerializationConfig config) {
    return new Builder(config);
  }

  /**
   * The same serializers and codecs writing with {@code serializerName} and {@code codecName} by
   * default: what a store or queue that chose its own uses. An unknown name is a {@link
   * ConfigurationException} naming it and those known.
   */
  public StoredValues using(String serializerName, String codecName) {
    List<ConfigProblem> problems = new ArrayList<>();
    ObjectSerializer chosenSerializer = registry.serializer(serializerName, "serializer", problems);
    Codec chosenCodec = registry.codec(codecName, "codec", problems);
    if (!problems.isEmpty()) {
      throw new ConfigurationException(problems);
    }
    return new StoredValues(config, registry, chosenSerializer, chosenCodec);
  }

  /** {@code value} (null included) as a record, with the default serializer and codec. */
  public byte[] write(Object value) {
    return write(value, serializer, codec);
  }

  /**
   * {@code value} as a record, with the serializer and codec of these names. An unknown name is a
   * {@link ConfigurationException}; prefer {@link #using} once at configuration time.
   */
  public byte[] write(Object value, String serializerName, String codecName) {
    return using(serializerName, codecName).write(value);
  }

  private byte[] write(Object value, ObjectSerializer with, Codec by) {
    byte[] serialized = with.serialize(value);
    checkWritable(value, with, serialized.length, "serialized");
    byte[] encoded = by.encode(serialized);
    checkWritable(value, with, encoded.length, "encoded with '" + by.name() + "'");
    byte[] record = new byte[RecordHeader.SIZE + encoded.length];
    RecordHeader.write(record, with.id(), with.formatVersion(), by.id(), serialized.length);
    System.arraycopy(encoded, 0, record, RecordHeader.SIZE, encoded.length);
    RecordHeader.putI32(record, RecordHeader.CHECKSUM_OFFSET, checksum(record));
    return record;
  }

  private void checkWritable(Object value, ObjectSerializer with, int length, String how) {
    if (length > config.maxSize()) {
      throw new SerializationException(
          "A "
              + (value == null ? "null" : value.getClass().getName())
              + " written with '"
              + with.name()
              + "' is "
              + length
              + " bytes "
              + how
              + ", more than serialization.maxSize "
              + config.maxSize()
              + ". Raise serialization.maxSize or store less in one value");
    }
  }

  /** The value in {@code record}, classes resolved with the thread's context class loader. */
  public Object read(byte[] record) {
    Validated valid = validate(record);
    return read(record, valid, valid.serializer().defaultLoader());
  }

  /** The value in {@code record}, classes resolved with {@code loader}. */
  public Object read(byte[] record, ClassLoader loader) {
    return read(record, validate(record), loader);
  }

  /**
   * The header of {@code record}, after checking its length, magic and header version; it need not
   * name a serializer or codec installed here.
   */
  public RecordHeader peek(byte[] record) {
    return RecordHeader.parse(record);
  }

  /** The serializer {@link #write(Object)} uses. */
  public ObjectSerializer defaultSerializer() {
    return serializer;
  }

  /** The codec {@link #write(Object)} uses. */
  public Codec defaultCodec() {
    return codec;
  }

  /** The configuration these stored values were made with. */
  public SerializationConfig config() {
    return config;
  }

  /** The effective configuration in one line, to log once at start. */
  public String describe() {
    return "serialization: default "
        + serializer.name()
        + " + "
        + codec.name()
        + (config.level() == null ? "" : " level " + config.level())
        + ", serializers "
        + registry.serializerList()
        + ", codecs "
        + registry.codecList()
        + ", maxSize "
        + config.maxSize()
        + ", maxDepth "
        + config.maxDepth()
        + ", allow "
        + config.allow();
  }

  @Override
  public String toString() {
    return "StoredValues[" + describe() + "]";
  }

  private record Validated(RecordHeader header, ObjectSerializer serializer, Codec codec) {}

  private Validated validate(byte[] record) {
    RecordHeader header = RecordHeader.parse(record);
    int length = record.length;
    ObjectSerializer reader = registry.serializersById[header.serializerId()];
    if (reader == null) {
      throw new CorruptRecordException(
          "A record of "
              + length
              + " bytes was written by serializer id "
              + header.serializerId()
              + ", which is not installed; installed: "
              + registry.serializerList()
              + (header.serializerId() == 2 || header.serializerId() == 3
                  ? ". Serializers 2 (kryo) and 3 (fory) come with sluice-serializers: add it"
                  : ""));
    }
    if (header.formatVersion() > reader.formatVersion()) {
      throw new CorruptRecordException(
          "A record of "
              + length
              + " bytes was written in format version "
              + header.formatVersion()
              + " of serializer '"
              + reader.name()
              + "', which reads versions up to "
              + reader.formatVersion()
              + ": it was written by a newer version; upgrade");
    }
    Codec decoder = registry.codecsById[header.codecId()];
    if (decoder == null) {
      throw new CorruptRecordException(
          "A record of "
              + length
              + " bytes was encoded by codec id "
              + header.codecId()
              + ", which is not installed; installed: "
              + registry.codecList()
              + (header.codecId() == 3 || header.codecId() == 4
                  ? ". Codecs 3 (lz4) and 4 (zstd) come with sluice-serializers: add it"
                  : ""));
    }
    checkDeclared(length, header.originalLength(), "serialized");
    checkDeclared(length, header.encodedLength(), "encoded");
    long following = length - RecordHeader.SIZE;
    if (header.encodedLength() != following) {
      throw new CorruptRecordException(
          "A record of "
              + length
              + " bytes declares "
              + header.encodedLength()
              + " encoded bytes after its header, but "
              + following
              + " follow: it is "
              + (following < header.encodedLength() ? "truncated" : "followed by other bytes"));
    }
    int actual = checksum(record);
    if (actual != header.checksum()) {
      throw new CorruptRecordException(
          String.format(
              "A record of %d bytes fails its checksum: the header says CRC32C 0x%08X, the bytes"
                  + " give 0x%08X: it is corrupt",
              length, header.checksum(), actual));
    }
    return new Validated(header, reader, decoder);
  }

  private void checkDeclared(int length, long declared, String what) {
    if (declared > config.maxSize()) {
      throw new CorruptRecordException(
          "A record of "
              + length
              + " bytes declares "
              + declared
              + " "
              + what
              + " bytes, more than serialization.maxSize "
              + config.maxSize()
              + "; refused before reading it. Raise serialization.maxSize if the value is genuine");
    }
  }

  private Object read(byte[] record, Validated valid, ClassLoader loader) {
    int length = record.length;
    int originalLength = (int) valid.header().originalLength();
    byte[] encoded = Arrays.copyOfRange(record, RecordHeader.SIZE, length);
    byte[] serialized;
    try {
      serialized = valid.codec().decode(encoded, originalLength);
    } catch (CorruptRecordException e) {
      throw new CorruptRecordException("A record of " + length + " bytes: " + e.getMessage(), e);
    } catch (SluiceException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new CorruptRecordException(
          "A record of "
              + length
              + " bytes cannot be decoded by codec '"
              + valid.codec().name()
              + "': "
              + e,
          e);
    }
    if (serialized.length != originalLength) {
      throw new CorruptRecordException(
          "A record of "
              + length
              + " bytes decodes to "
              + serialized.length
              + " bytes with codec '"
              + valid.codec().name()
              + "', but its header declares "
              + originalLength);
    }
    ObjectSerializer reader = valid.serializer();
    try {
      return reader.deserialize(serialized, loader);
    } catch (ClassNotAllowedException e) {
      throw e;
    } catch (CorruptRecordException | UncheckedIOException e) {
      throw new CorruptRecordException(
          "A record of "
              + length
              + " bytes cannot be read by serializer '"
              + reader.name()
              + "': "
              + e.getMessage(),
          e);
    } catch (SluiceException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new SerializationException(
          "A record of "
              + length
              + " bytes cannot be read by serializer '"
              + reader.name()
              + "': "
              + e,
          e);
    }
  }

  private static int checksum(byte[] record) {
    CRC32C crc = new CRC32C();
    crc.update(record, 0, RecordHeader.CHECKSUM_OFFSET);
    crc.update(record, RecordHeader.SIZE, record.length - RecordHeader.SIZE);
    return (int) crc.getValue();
  }

  /** Builds {@link StoredValues}; not thread-safe. */
  public static final class Builder {
    private final SerializationConfig config;
    private final List<SerializerFactory> serializerFactories = new ArrayList<>();
    private final List<CodecFactory> codecFactories = new ArrayList<>();
    private ClassLoader discoveryLoader = StoredValues.class.getClassLoader();
    private boolean discover = true;

    private Builder(SerializationConfig config) {
      this.config = config;
    }

    /** Adds a serializer factory; it replaces a discovered one of the same name. */
    public Builder serializer(SerializerFactory factory) {
      serializerFactories.add(factory);
      return this;
    }

    /** Adds a codec factory; it replaces a discovered one of the same name. */
    public Builder codec(CodecFactory factory) {
      codecFactories.add(factory);
      return this;
    }

    /** Discovers factories with {@code loader} (default: the one that loaded sluice-core). */
    public Builder discoverWith(ClassLoader loader) {
      this.discoveryLoader = loader;
      this.discover = true;
      return this;
    }

    /** Uses only the factories added here, none from {@link ServiceLoader}. */
    public Builder noDiscovery() {
      this.discover = false;
      return this;
    }

    /**
     * The stored values, or a {@link ConfigurationException} listing every problem: unknown default
     * names, bad levels, ids out of range or taken twice, names provided twice.
     */
    public StoredValues build() {
      List<ConfigProblem> problems = new ArrayList<>();
      Map<String, SerializerFactory> serializerByName =
          byName(
              SerializerFactory.class,
              serializerFactories,
              SerializerFactory::name,
              "serializer",
              problems);
      Map<String, CodecFactory> codecByName =
          byName(CodecFactory.class, codecFactories, CodecFactory::name, "codec", problems);

      SerializerSettings settings = config.serializerSettings();
      Map<String, ObjectSerializer> serializers = new LinkedHashMap<>();
      Map<Integer, String> serializerIds = new TreeMap<>();
      serializerByName.forEach(
          (name, factory) -> {
            ObjectSerializer made =
                make(() -> factory.create(settings), "serialization.serializers." + name, problems);
            if (made != null
                && checkId(made.id(), 1, name, "serializer", serializerIds, problems)) {
              serializers.put(name, made);
            }
          });
      Map<String, Codec> codecs = new LinkedHashMap<>();
      Map<Integer, String> codecIds = new TreeMap<>();
      codecByName.forEach(
          (name, factory) -> {
            Integer level = name.equals(config.codec()) ? config.level() : null;
            Codec made =
                make(() -> factory.create(level), "serialization.codecs." + name, problems);
            if (made != null && checkId(made.id(), 0, name, "codec", codecIds, problems)) {
              codecs.put(name, made);
            }
          });
      Registry registry = new Registry(serializers, codecs);
      ObjectSerializer defaultSerializer =
          registry.serializer(config.serializer(), "serialization.serializer", problems);
      Codec defaultCodec = registry.codec(config.codec(), "serialization.codec", problems);
      if (!problems.isEmpty()) {
        throw new ConfigurationException(problems);
      }
      return new StoredValues(config, registry, defaultSerializer, defaultCodec);
    }

    private <F> Map<String, F> byName(
        Class<F> type,
        List<F> added,
        java.util.function.Function<F, String> name,
        String kind,
        List<ConfigProblem> problems) {
      Map<String, F> found = new TreeMap<>();
      if (discover) {
        for (F factory : ServiceLoader.load(type, discoveryLoader)) {
          F previous = found.putIfAbsent(name.apply(factory), factory);
          if (previous != null) {
            problems.add(
                ConfigProblem.of(
                    "serialization",
                    name.apply(factory),
                    "is the "
                        + kind
                        + " name of both "
                        + previous.getClass().getName()
                        + " and "
                        + factory.getClass().getName()
                        + "; remove one from the class path"));
          }
        }
      }
      for (F factory : added) {
        found.put(name.apply(factory), factory);
      }
      return found;
    }

    private static <T> T make(
        java.util.function.Supplier<T> creation, String path, List<ConfigProblem> problems) {
      try {
        return creation.get();
      } catch (ConfigurationException e) {
        problems.addAll(e.problems());
      } catch (RuntimeException | LinkageError e) {
        problems.add(ConfigProblem.of(path, null, "could not be created: " + e));
      }
      return null;
    }

    private static boolean checkId(
        int id,
        int min,
        String name,
        String kind,
        Map<Integer, String> taken,
        List<ConfigProblem> problems) {
      if (id < min || id > 255) {
        problems.add(
            ConfigProblem.of(
                "serialization", name, "has " + kind + " id " + id + ", outside " + min + "-255"));
        return false;
      }
      String other = taken.putIfAbsent(id, name);
      if (other != null) {
        problems.add(
            ConfigProblem.of(
                "serialization",
                name,
                "has " + kind + " id " + id + ", already the id of '" + other + "'"));
        return false;
      }
      return true;
    }
  }
}
