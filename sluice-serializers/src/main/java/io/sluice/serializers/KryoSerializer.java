package io.sluice.serializers;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.SerializerFactory;
import com.esotericsoftware.kryo.SerializerFactory.BaseSerializerFactory;
import com.esotericsoftware.kryo.SerializerFactory.CompatibleFieldSerializerFactory;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.CompatibleFieldSerializer.CompatibleFieldSerializerConfig;
import com.esotericsoftware.kryo.serializers.DefaultSerializers;
import com.esotericsoftware.kryo.util.MapReferenceResolver;
import com.esotericsoftware.kryo.util.Pool;
import io.sluice.core.serialization.PostDeserialize;
import io.sluice.core.serialization.spi.ObjectSerializer;
import io.sluice.core.serialization.spi.SerializationException;
import io.sluice.core.serialization.spi.SerializerSettings;
import io.sluice.serializers.BoundedSerializers.BoundedObjectArraySerializer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import org.objenesis.strategy.StdInstantiatorStrategy;

/**
 * The Kryo 5 serializer (id 2, name {@code kryo}). Kryo instances are not thread-safe, so they are
 * pooled (never kept in a ThreadLocal, which virtual threads would multiply). Registration is not
 * required: the common types have fixed ids ({@link KryoRegistrations}), every other class is
 * written by name and checked against the allow-list before it is loaded. Classes without a
 * specific serializer use Kryo's {@code CompatibleFieldSerializer}, so stored types may gain and
 * lose fields; records use Kryo's record serializer. Shared references and cycles are kept.
 *
 * <p>Reads take the whole stream as one value (a record's payload), at most {@code maxBytes} of it.
 * Plain {@code Input}/{@code Output} are used, not the Unsafe variants, which fail when {@code
 * sun.misc.Unsafe} memory access is denied. Kryo's field serializers still use Unsafe on their own:
 * under {@code --sun-misc-unsafe-memory-access=deny} start the JVM with {@code -Dkryo.unsafe=false}
 * too (Kryo then reads fields through reflection), otherwise beans fail with "objectFieldOffset".
 */
public final class KryoSerializer implements ObjectSerializer {

  /** The id stored in record headers. */
  public static final int ID = 2;

  /** The Kryo byte format version; see {@link KryoRegistrations} for what changing it means. */
  public static final int FORMAT_VERSION = 1;

  private static final int BUFFER_SIZE = 4096;

  private final SerializerSettings settings;
  private final Consumer<Kryo> customizer;
  private final Pool<Kryo> pool;

  /** A Kryo serializer with these settings. */
  public KryoSerializer(SerializerSettings settings) {
    this(settings, kryo -> {});
  }

  /** For tests: {@code customizer} runs on every new Kryo instance after Sluice's setup. */
  KryoSerializer(SerializerSettings settings, Consumer<Kryo> customizer) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.customizer = Objects.requireNonNull(customizer, "customizer");
    int capacity = Math.max(16, 4 * Runtime.getRuntime().availableProcessors());
    this.pool =
        new Pool<>(true, false, capacity) {
          @Override
          protected Kryo create() {
            return newKryo();
          }
        };
  }

  private Kryo newKryo() {
    Kryo kryo =
        new Kryo(new AllowListClassResolver(settings.allowList()), new MapReferenceResolver());
    kryo.setRegistrationRequired(false);
    kryo.setWarnUnregisteredClasses(false);
    kryo.setMaxDepth(settings.maxDepth());
    kryo.setInstantiatorStrategy(
        new com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy(
            new StdInstantiatorStrategy()));
    // Object arrays are sized from the input: check the size first. Collections and maps that
    // Kryo presizes get bounded serializers in KryoRegistrations (a default for Collection or
    // Map would shadow Kryo's serializers for List.of and friends).
    kryo.addDefaultSerializer(
        Object[].class, factory(t -> new BoundedObjectArraySerializer(kryo, t)));
    // Kryo has these serializers but does not install them; without them UUID and URI would fall
    // to the field serializer, which cannot open java.base.
    kryo.addDefaultSerializer(UUID.class, new DefaultSerializers.UUIDSerializer());
    kryo.addDefaultSerializer(URI.class, new DefaultSerializers.URISerializer());
    CompatibleFieldSerializerConfig compatible = new CompatibleFieldSerializerConfig();
    // Chunked fields can be skipped when the reader no longer has them.
    compatible.setChunkedEncoding(true);
    kryo.setDefaultSerializer(new CompatibleFieldSerializerFactory(compatible));
    KryoRegistrations.registerAll(kryo);
    customizer.accept(kryo);
    return kryo;
  }

  private static SerializerFactory<Serializer<?>> factory(
      Function<Class<?>, Serializer<?>> create) {
    return new BaseSerializerFactory<>() {
      @Override
      @SuppressWarnings("rawtypes")
      public Serializer<?> newSerializer(Kryo kryo, Class type) {
        return create.apply(type);
      }
    };
  }

  @Override
  public String name() {
    return "kryo";
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
    write(new Output(out, BUFFER_SIZE), value);
  }

  /** Writes straight into a growing buffer: no stream in between (a large value is copied once). */
  @Override
  public byte[] serialize(Object value) {
    Output output = new Output(BUFFER_SIZE, -1);
    try {
      write(output, value);
    } catch (IOException e) {
      throw new SerializationException("Kryo could not write a " + typeName(value), e);
    }
    return output.toBytes();
  }

  private void write(Output output, Object value) throws IOException {
    Kryo kryo = pool.obtain();
    try {
      kryo.writeClassAndObject(output, value);
      output.flush();
    } catch (KryoException e) {
      // A failed write may leave the instance mid-graph: drop it rather than pool it.
      kryo = null;
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new SerializationException(
          "Kryo could not write a " + typeName(value) + ": " + e.getMessage(), e);
    } finally {
      if (kryo != null) {
        pool.free(kryo);
      }
    }
  }

  @Override
  public Object deserialize(InputStream in, ClassLoader loader) throws IOException {
    Objects.requireNonNull(loader, "loader");
    return read(BoundedReads.readAll(in, settings.maxBytes(), "kryo"), loader);
  }

  /** Reads the bytes as they are: no stream in between. */
  @Override
  public Object deserialize(byte[] bytes, ClassLoader loader) {
    Objects.requireNonNull(loader, "loader");
    return read(BoundedReads.check(bytes, settings.maxBytes(), "kryo"), loader);
  }

  private Object read(byte[] bytes, ClassLoader loader) {
    Object value;
    Kryo kryo = pool.obtain();
    try {
      kryo.setClassLoader(loader);
      value = kryo.readClassAndObject(new BoundedInput(bytes));
      kryo.setClassLoader(KryoSerializer.class.getClassLoader());
      pool.free(kryo);
    } catch (RuntimeException | StackOverflowError e) {
      // Not returned to the pool: a failed read may leave it mid-graph.
      throw ReadFailures.translate("Kryo", e, bytes.length);
    }
    return PostDeserialize.apply(value);
  }

  private static String typeName(Object value) {
    return value == null ? "null" : value.getClass().getName();
  }

  @Override
  public String toString() {
    return "KryoSerializer[" + settings + "]";
  }
}
