package io.sluice.serializers;

import io.sluice.core.serialization.PostDeserialize;
import io.sluice.core.serialization.spi.ClassAllowList;
import io.sluice.core.serialization.spi.ClassNotAllowedException;
import io.sluice.core.serialization.spi.ObjectSerializer;
import io.sluice.core.serialization.spi.SerializationException;
import io.sluice.core.serialization.spi.SerializerSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.fory.Fory;
import org.apache.fory.ThreadSafeFory;
import org.apache.fory.config.CompatibleMode;
import org.apache.fory.config.Language;

/**
 * The Apache Fory serializer (id 3, name {@code fory}), in Fory's native Java mode with compatible
 * schemas, so stored types may gain and lose fields. Fory instances are pooled ({@code
 * ThreadPoolFory}, no ThreadLocal); there is one pool per class loader, because a Fory instance is
 * bound to the loader it was built with. Registration is not required: every class Fory reads by
 * name goes through the allow-list first, and a refused one fails with {@link
 * ClassNotAllowedException}. Shared references and cycles are kept.
 *
 * <p>Reads take the whole stream as one value (a record's payload), at most {@code maxBytes} of it.
 * On JDK 25 Fory needs {@code --add-opens=java.base/java.lang.invoke=ALL-UNNAMED}.
 */
public final class ForySerializer implements ObjectSerializer {

  /** The id stored in record headers. */
  public static final int ID = 3;

  /**
   * The Fory byte format version. Raise it when the Fory configuration below or the Fory major
   * version changes the bytes written.
   */
  public static final int FORMAT_VERSION = 1;

  private final SerializerSettings settings;
  private final Consumer<ThreadSafeFory> customizer;
  private final int poolSize;
  // One entry per loader an application uses (normally one); it holds the loader strongly.
  private final Map<ClassLoader, ThreadSafeFory> byLoader = new ConcurrentHashMap<>();

  /** A Fory serializer with these settings. */
  public ForySerializer(SerializerSettings settings) {
    this(settings, fory -> {});
  }

  /** For tests: {@code customizer} runs on every new Fory pool after Sluice's setup. */
  ForySerializer(SerializerSettings settings, Consumer<ThreadSafeFory> customizer) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.customizer = Objects.requireNonNull(customizer, "customizer");
    this.poolSize = Math.max(16, 4 * Runtime.getRuntime().availableProcessors());
  }

  private ThreadSafeFory foryFor(ClassLoader loader) {
    return byLoader.computeIfAbsent(loader, this::newFory);
  }

  private ThreadSafeFory newFory(ClassLoader loader) {
    ClassAllowList allowList = settings.allowList();
    ThreadSafeFory fory =
        Fory.builder()
            .withLanguage(Language.JAVA)
            .withCompatibleMode(CompatibleMode.COMPATIBLE)
            .withRefTracking(true)
            .requireClassRegistration(false)
            .suppressClassRegistrationWarnings(true)
            .withTypeChecker(
                (resolver, className) -> {
                  allowList.check(className);
                  return true;
                })
            .withMaxDepth(settings.maxDepth())
            .withClassLoader(loader)
            .buildThreadSafeForyPool(poolSize);
    customizer.accept(fory);
    return fory;
  }

  @Override
  public String name() {
    return "fory";
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
    out.write(serialize(value));
  }

  /** Fory's own byte-array form, returned as it is: no stream in between. */
  @Override
  public byte[] serialize(Object value) {
    try {
      return foryFor(defaultLoader()).serialize(value);
    } catch (RuntimeException e) {
      throw new SerializationException(
          "Fory could not write a "
              + (value == null ? "null" : value.getClass().getName())
              + ": "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public Object deserialize(InputStream in, ClassLoader loader) throws IOException {
    Objects.requireNonNull(loader, "loader");
    return read(BoundedReads.readAll(in, settings.maxBytes(), "fory"), loader);
  }

  /** Reads the bytes as they are: no stream in between. */
  @Override
  public Object deserialize(byte[] bytes, ClassLoader loader) {
    Objects.requireNonNull(loader, "loader");
    return read(BoundedReads.check(bytes, settings.maxBytes(), "fory"), loader);
  }

  private Object read(byte[] bytes, ClassLoader loader) {
    Object value;
    try {
      value = foryFor(loader).deserialize(bytes);
    } catch (RuntimeException | StackOverflowError e) {
      throw ReadFailures.translate("Fory", e, bytes.length);
    }
    return PostDeserialize.apply(value);
  }

  @Override
  public String toString() {
    return "ForySerializer[" + settings + "]";
  }
}
