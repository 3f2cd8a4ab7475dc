package io.sluice.core.serialization;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.SluiceException;
import io.sluice.core.serialization.spi.ClassNotAllowedException;
import io.sluice.core.serialization.spi.Codec;
import io.sluice.core.serialization.spi.CodecFactory;
import io.sluice.core.serialization.spi.CorruptRecordException;
import io.sluice.core.serialization.spi.ObjectSerializer;
import io.sluice.core.serialization.spi.RecordFault;
import io.sluice.core.serialization.spi.SerializationException;
import io.sluice.core.serialization.spi.SerializerFactory;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.zip.CRC32C;

/**
 * The format of every stored value: a {@link RecordHeader} naming the serializer and codec that
 * wrote it, then the encoded bytes. Stores and queues turn values into records with it and back.
 * Writing uses a named serializer ({@link SerializationConfig#serializers()}): the application's
 * default, or the one a store or queue names ({@link #named(String)}); reading uses the serializer
 * and codec the header names, never a name, so records stay readable after the defaults change.
 * Unless configured otherwise the default is the built-in {@value
 * SerializationConfig#DEFAULT_NAME}, detected from what is installed ({@link #detected()}, shown by
 * {@link #describe()}). A record that is truncated, corrupt or larger than {@code
 * serialization.maxSize} fails with {@link CorruptRecordException}, checked before anything is
 * allocated for it; every failed read says why in its {@link SerializationException#fault()}.
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
  private final String name;
  private final Integer level;
  private final boolean detected;
  private final Map<String, StoredValues> named;

  StoredValues(
      SerializationConfig config,
      Registry registry,
      ObjectSerializer serializer,
      Codec codec,
      String name,
      Integer level,
      boolean detected,
      Map<String, StoredValues> named) {
    this.config = config;
    this.registry = registry;
    this.serializer = serializer;
    this.codec = codec;
    this.name = name;
    this.level = level;
    this.detected = detected;
    this.named = named;
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
    if (chosenCodec instanceof LazyCodec lazy) {
      try {
        lazy.makeNow();
      } catch (RuntimeException | LinkageError e) {
        problems.add(
            ConfigProblem.of(
                "codec", codecName, "is an installed codec that could not be made: " + e));
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigurationException(problems);
    }
    return new StoredValues(
        config, registry, chosenSerializer, chosenCodec, null, null, false, named);
  }

  /**
   * The view writing with the serializer named {@code serializerName} under {@code
   * serialization.serializers} (or the built-in {@value SerializationConfig#DEFAULT_NAME}): what a
   * store or queue that names one uses. Every view reads every record, whatever wrote it. An
   * unknown name is a {@link ConfigurationException} naming those defined.
   */
  public StoredValues named(String serializerName) {
    StoredValues view = serializerName == null ? null : named.get(serializerName);
    if (view == null) {
      throw new ConfigurationException(
          ConfigProblem.of(
              "serializer",
              serializerName,
              "is not a named serializer; defined: "
                  + new java.util.TreeSet<>(named.keySet())
                  + ". Define it under serialization.serializers"));
    }
    return view;
  }

  /** The names {@link #named(String)} knows, the built-in one included. */
  public java.util.Set<String> names() {
    return java.util.Collections.unmodifiableSet(named.keySet());
  }

  /**
   * The name of the serializer this view writes with, as under {@code serialization.serializers},
   * or null for a view made by {@link #using}.
   */
  public String name() {
    return name;
  }

  /** Whether this view writes with the built-in serializer, detected from what is installed. */
  public boolean detected() {
    return detected;
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

  /**
   * The effective configuration in one line, to log once at start: the default named serializer
   * (marked when detected), every named one, what is installed, the limits and allow patterns.
   */
  public String describe() {
    StoredValues byDefault = named.getOrDefault(config.defaultName(), this);
    StringBuilder text =
        new StringBuilder("serialization: default '")
            .append(config.defaultName())
            .append("' = ")
            .append(byDefault.format());
    if (byDefault.detected) {
      text.append(
          FASTEST_SAFE.equals(byDefault.format())
              ? " (detected: sluice-serializers is installed)"
              : " (detected: sluice-serializers is not installed; with it, " + FASTEST_SAFE + ")");
    }
    if (name == null || !name.equals(config.defaultName())) {
      text.append(", this view writes with ").append(name == null ? format() : "'" + name + "'");
    }
    text.append(", named [");
    String separator = "";
    for (StoredValues view : named.values()) {
      text.append(separator).append(view.name).append(" = ").append(view.format());
      if (view.detected) {
        text.append(" (detected)");
      }
      separator = ", ";
    }
    return text.append("], installed serializers ")
        .append(registry.serializerList())
        .append(", codecs ")
        .append(registry.codecList())
        .append(", maxSize ")
        .append(config.maxSize())
        .append(" bytes, maxDepth ")
        .append(config.maxDepth())
        .append(", allow ")
        .append(config.allow())
        .toString();
  }

  private static final String FASTEST_SAFE =
      SerializationConfig.FASTEST_SAFE_SERIALIZER + " + " + SerializationConfig.FASTEST_SAFE_CODEC;

  private String format() {
    return serializer.name() + " + " + codec.name() + (level == null ? "" : " level " + level);
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
          RecordFault.UNKNOWN_SERIALIZER,
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
          RecordFault.NEWER_FORMAT,
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
          RecordFault.UNKNOWN_CODEC,
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
          following < header.encodedLength() ? RecordFault.TRUNCATED : RecordFault.CORRUPT,
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
          RecordFault.CHECKSUM_MISMATCH,
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
          RecordFault.TOO_LARGE,
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
      throw new CorruptRecordException(
          e.fault(), "A record of " + length + " bytes: " + e.getMessage(), e);
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
          e instanceof CorruptRecordException c ? c.fault() : RecordFault.CORRUPT,
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
      return new StoredValuesAssembly(
              config, serializerFactories, codecFactories, discoveryLoader, discover)
          .build();
    }
  }
}
