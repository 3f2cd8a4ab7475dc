package io.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.sluice.core.serialization.NoneCodecFactory;
import io.sluice.core.serialization.RecordHeader;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.serialization.spi.ClassAllowList;
import io.sluice.core.serialization.spi.ClassNotAllowedException;
import io.sluice.core.serialization.spi.ObjectSerializer;
import io.sluice.core.serialization.spi.SerializationException;
import io.sluice.core.serialization.spi.SerializerFactory;
import io.sluice.core.serialization.spi.SerializerSettings;
import io.sluice.testkit.fixtures.Hooked;
import io.sluice.testkit.fixtures.Order;
import io.sluice.testkit.fixtures.Point;
import io.sluice.testkit.fixtures.ValueShapes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.example.notallowed.Gadget;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every {@link ObjectSerializer} keeps, to extend once per implementation: it carries
 * every shape of value ({@link ValueShapes}) back equal, refuses classes its allow-list does not
 * admit (well-known gadgets included) naming them and {@code serialization.allow}, fails on
 * truncated, corrupt or hostile bytes only with a {@link SerializationException} and without
 * allocating what they declare, and serves 64 virtual threads with one instance.
 *
 * <p>A subclass gives the factory ({@link #factory}); it may override {@link #create} to make the
 * serializer some other way, and {@link #bytesNaming} when it cannot write an instance of a JDK
 * class such as {@code java.lang.Runtime}.
 */
public abstract class ObjectSerializerContractTest {

  /** How many virtual threads share one serializer at once. */
  protected static final int THREADS = 64;

  /** The well-known deserialization gadgets every serializer must refuse by name. */
  protected static final List<String> GADGETS =
      List.of(
          "com.sun.rowset.JdbcRowSetImpl",
          "org.apache.commons.collections.functors.InvokerTransformer",
          "java.lang.Runtime");

  /** The serializer made with the default settings, which every case reads with. */
  protected final ObjectSerializer serializer = create(SerializerSettings.defaults());

  /** The factory of the serializer under test. */
  protected abstract SerializerFactory factory();

  /** The serializer under test made with {@code settings}; by default, by {@link #factory}. */
  protected ObjectSerializer create(SerializerSettings settings) {
    return factory().create(settings);
  }

  /**
   * Settings whose allow-list adds {@code patterns} to the defaults, limited to {@code maxBytes}.
   */
  protected static SerializerSettings allowing(List<String> patterns, long maxBytes) {
    return new SerializerSettings(ClassAllowList.defaults().with(patterns), 100, maxBytes);
  }

  /** {@code value} written and read back with the serializer under test. */
  protected Object roundTrip(Object value) {
    return serializer.deserialize(serializer.serialize(value), loader());
  }

  /** The loader classes are resolved with: the one that loaded the test. */
  protected ClassLoader loader() {
    return getClass().getClassLoader();
  }

  static Stream<Named<Object>> shapes() {
    return ValueShapes.all().entrySet().stream().map(e -> Named.of(e.getKey(), e.getValue()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void everyShapeOfValueReadsBackEqualToWhatWasWritten(Object value) {
    assertThat(roundTrip(value)).isEqualTo(value);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void everyShapeOfValueReadsBackFromAStoredValuesRecord(Object value) {
    StoredValues stored =
        StoredValues.builder(
                SerializationConfig.builder().serializer(factory().name()).codec("none").build())
            .noDiscovery()
            .serializer(
                new SerializerFactory() {
                  @Override
                  public String name() {
                    return factory().name();
                  }

                  @Override
                  public ObjectSerializer create(SerializerSettings settings) {
                    return ObjectSerializerContractTest.this.create(settings);
                  }
                })
            .codec(new NoneCodecFactory())
            .build();
    byte[] record = stored.write(value);

    assertThat(stored.read(record, loader())).isEqualTo(value);
    RecordHeader header = stored.peek(record);
    assertThat(header.serializerId()).isEqualTo(serializer.id());
    assertThat(header.formatVersion()).isEqualTo(serializer.formatVersion());
  }

  @Test
  void nullReadsBackAsNull() {
    assertThat(roundTrip(null)).isNull();
  }

  @ParameterizedTest
  @MethodSource("scalars")
  void boxesStringsAndValueTypesKeepTheirExactClass(Object value) {
    assertThat(roundTrip(value)).isEqualTo(value).hasSameClassAs(value);
  }

  static List<Object> scalars() {
    return List.of(42, -7L, 3.25d, 1.5f, true, 'ç', (byte) -3, (short) 9, "text");
  }

  @Test
  void itsNameIsItsFactorysAndItsIdFitsARecordHeader() {
    assertThat(serializer.name()).isEqualTo(factory().name());
    assertThat(serializer.id()).isBetween(1, 255);
    assertThat(serializer.formatVersion()).isBetween(0, 255);
  }

  @Test
  void aValueReferencedTwiceIsReadBackAsOneObject() {
    Point point = new Point(1, 2);
    List<?> read = (List<?>) roundTrip(new ArrayList<>(List.of(point, point)));
    assertThat(read.get(0)).isSameAs(read.get(1));
  }

  @Test
  void thePostDeserializeHookHasRunOnTheValueReturned() {
    assertThat(((Hooked) roundTrip(new Hooked("hello"))).length()).isEqualTo(5);
  }

  @Test
  void classesAreResolvedWithTheLoaderGiven() {
    Set<String> asked = ConcurrentHashMap.newKeySet();
    ClassLoader recording =
        new ClassLoader(loader()) {
          @Override
          protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            asked.add(name);
            return super.loadClass(name, resolve);
          }
        };
    Object read = serializer.deserialize(serializer.serialize(new Point(1, 1)), recording);

    assertThat(read).isEqualTo(new Point(1, 1));
    assertThat(asked).contains(Point.class.getName());
  }

  @Test
  void aClassOutsideTheAllowListIsRefusedNamingItAndTheSettingThatWouldAllowIt() {
    byte[] bytes = create(allowing(List.of("org.example.*"), 1 << 20)).serialize(new Gadget());

    assertThatThrownBy(() -> serializer.deserialize(bytes, loader()))
        .isInstanceOfSatisfying(
            ClassNotAllowedException.class,
            e -> assertThat(e.className()).isEqualTo(Gadget.class.getName()))
        .hasMessageContaining("'" + Gadget.class.getName() + "'")
        .hasMessageContaining("serialization.allow: [org.example.notallowed.*]");
  }

  @Test
  void aClassOutsideTheAllowListIsRefusedInsideACollectionToo() {
    byte[] bytes =
        create(allowing(List.of(Gadget.class.getName()), 1 << 20))
            .serialize(new ArrayList<>(List.of("fine", new Gadget())));

    assertThatThrownBy(() -> serializer.deserialize(bytes, loader()))
        .isInstanceOf(ClassNotAllowedException.class)
        .hasMessageContaining(Gadget.class.getName());
  }

  static List<String> gadgets() {
    return GADGETS;
  }

  @ParameterizedTest
  @MethodSource("gadgets")
  void aWellKnownGadgetIsRefusedNamingItAndTheSettingThatWouldAllowIt(String gadget) {
    ClassLoader standIns = gadget.startsWith("java.") ? loader() : standInLoader(gadget);
    byte[] bytes = bytesNaming(gadget, standIns);

    assertThatThrownBy(() -> serializer.deserialize(bytes, standIns))
        .isInstanceOfSatisfying(
            ClassNotAllowedException.class, e -> assertThat(e.className()).isEqualTo(gadget))
        .hasMessageContaining("'" + gadget + "'")
        .hasMessageContaining("serialization.allow");
  }

  private ClassLoader standInLoader(String gadget) {
    return GadgetStandIns.loaderDefining(gadget, loader());
  }

  /**
   * What this serializer writes for an instance of {@code className} when its allow-list admits the
   * class. By default: a harmless stand-in defined under that name by {@code standIns} (a copy of
   * {@link Gadget}); for {@code java.lang.Runtime}, which only the JDK may define, the runtime
   * itself. A serializer that cannot write such an instance at all (JDK serialization and {@code
   * Runtime}) overrides this to forge the bytes.
   */
  protected byte[] bytesNaming(String className, ClassLoader standIns) {
    ObjectSerializer permissive = create(allowing(List.of(className), 1 << 20));
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(standIns);
    try {
      Object value =
          className.equals("java.lang.Runtime")
              ? Runtime.getRuntime()
              : instanceFrom(standIns, className);
      return permissive.serialize(value);
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  private static Object instanceFrom(ClassLoader standIns, String className) {
    try {
      return Class.forName(className, true, standIns).getConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Could not make a stand-in for " + className, e);
    }
  }

  @Test
  void everyTruncationFailsWithASerializationException() {
    byte[] bytes = serializer.serialize(Order.sample(1));
    for (int length = 0; length < bytes.length; length++) {
      byte[] prefix = Arrays.copyOf(bytes, length);
      assertThat(catchThrowable(() -> serializer.deserialize(prefix, loader())))
          .as("the first %d of %d bytes", length, bytes.length)
          .isInstanceOf(SerializationException.class);
    }
  }

  @Test
  void everyCorruptByteEitherReadsOrFailsWithASerializationException() {
    byte[] bytes = serializer.serialize(Order.sample(1));
    for (int i = 0; i < bytes.length; i++) {
      for (int flip : new int[] {0x01, 0x80, 0xFF}) {
        byte[] corrupt = bytes.clone();
        corrupt[i] ^= (byte) flip;
        assertReadsOrFailsCleanly(corrupt, "byte " + i + " xor " + flip);
      }
      byte[] huge = bytes.clone();
      huge[i] = (byte) 0xFF; // in varints and length prefixes, a huge length
      assertReadsOrFailsCleanly(huge, "byte " + i + " set to 0xFF");
    }
  }

  @ParameterizedTest
  @MethodSource("sized")
  void aDeclaredHugeLengthFailsWithoutAllocatingIt(Object value) {
    byte[] bytes = serializer.serialize(value);
    for (int i = 0; i + 4 <= bytes.length; i++) {
      for (byte[] length : List.of(new byte[] {0x7F, -1, -1, -1}, new byte[] {-1, -1, -1, 0x07})) {
        byte[] huge = bytes.clone();
        System.arraycopy(length, 0, huge, i, 4);
        assertReadsOrFailsCleanly(huge, "a huge length at byte " + i);
      }
    }
  }

  static Stream<Named<Object>> sized() {
    return Stream.of(
        Named.of("a byte array", new byte[8]),
        Named.of("a string", "12345678"),
        Named.of("a list", new ArrayList<>(List.of(1, 2, 3))),
        Named.of("a map", new java.util.HashMap<>(java.util.Map.of("k", "v"))),
        Named.of("an int array", new int[] {1, 2, 3}));
  }

  private void assertReadsOrFailsCleanly(byte[] bytes, String what) {
    Throwable thrown = catchThrowable(() -> serializer.deserialize(bytes, loader()));
    if (thrown != null) {
      assertThat(thrown).as(what).isInstanceOf(SerializationException.class);
    }
  }

  @Test
  void aValueLargerThanMaxBytesIsRefusedNamingTheLimit() {
    ObjectSerializer small = create(allowing(List.of(), 64));
    byte[] bytes = small.serialize(new byte[1000]);

    assertThatThrownBy(() -> small.deserialize(bytes, loader()))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("64");
  }

  @Test
  void sixtyFourVirtualThreadsShareOneSerializer() throws Exception {
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
                  for (int i = 0; i < 50; i++) {
                    Order order = Order.sample(thread * 1000 + i);
                    if (roundTrip(order).equals(order)) {
                      equal++;
                    }
                  }
                  return equal;
                }));
      }
      start.countDown();
      for (Future<Integer> result : results) {
        assertThat(result.get()).isEqualTo(50);
      }
    }
  }
}
