package io.sluice.serializers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.sluice.core.serialization.ClassAllowList;
import io.sluice.core.serialization.ClassNotAllowedException;
import io.sluice.core.serialization.CorruptRecordException;
import io.sluice.core.serialization.SerializationException;
import io.sluice.core.serialization.SerializerSettings;
import io.sluice.core.spi.ObjectSerializer;
import io.sluice.serializers.fixtures.Address;
import io.sluice.serializers.fixtures.Customer;
import io.sluice.serializers.fixtures.EvolvingV1;
import io.sluice.serializers.fixtures.EvolvingV2;
import io.sluice.serializers.fixtures.Hooked;
import io.sluice.serializers.fixtures.Order;
import io.sluice.serializers.fixtures.OrderLine;
import io.sluice.serializers.fixtures.Point;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.example.notallowed.Gadget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every {@link ObjectSerializer} in this module must do. Expectations stay within what any
 * correct allow-list admits: Sluice's own types, java.util collections, boxes, String, BigDecimal,
 * Instant and UUID are in; {@code org.example.notallowed} is out.
 */
abstract class ObjectSerializerContractTest {

  static final SerializerSettings SETTINGS = settings(ClassAllowList.defaults(), 64L * 1024 * 1024);

  /** A serializer made with {@code settings}. */
  abstract ObjectSerializer create(SerializerSettings settings);

  /**
   * A serializer that maps {@code type} to the same stored name as every other call with another
   * version of it, so one version's bytes are read as the other.
   */
  abstract ObjectSerializer createWithEvolvingTypeAs(Class<?> type);

  static SerializerSettings settings(ClassAllowList allowList, long maxBytes) {
    return new SerializerSettings(allowList, 100, maxBytes);
  }

  final ObjectSerializer serializer = create(SETTINGS);

  Object roundTrip(Object value) {
    return serializer.deserialize(serializer.serialize(value), getClass().getClassLoader());
  }

  static Order order(int n) {
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("channel", "web");
    attributes.put("note", "entrega rápida " + n);
    return new Order(
        new UUID(n, 42),
        Instant.parse("2026-03-01T10:15:30.123456789Z").plusSeconds(n),
        new BigDecimal("1234.5600").add(BigDecimal.valueOf(n)),
        new ArrayList<>(
            List.of(
                new OrderLine("sku-1", 2, new BigDecimal("9.99")),
                new OrderLine("sku-2", n, new BigDecimal("0.01")))),
        attributes,
        new Customer("Ana " + n, new Address("Rua Augusta " + n, "São Paulo")));
  }

  @Test
  void nullRoundTrips() {
    assertThat(roundTrip(null)).isNull();
  }

  static List<Object> primitives() {
    return List.of(
        42, -7L, 3.25d, 1.5f, true, false, 'ç', (byte) -3, (short) 1234, Integer.MIN_VALUE);
  }

  @ParameterizedTest
  @MethodSource("primitives")
  void boxedPrimitivesRoundTripWithTheirType(Object value) {
    assertThat(roundTrip(value)).isEqualTo(value).hasSameClassAs(value);
  }

  @Test
  void textInAnyScriptRoundTrips() {
    String text = "Olá, mundo — 世界 — Привет — مرحبا — 🚀";
    assertThat(roundTrip(text)).isEqualTo(text);
    assertThat(roundTrip("")).isEqualTo("");
  }

  @Test
  void byteArraysRoundTrip() {
    byte[] bytes = new byte[1000];
    Arrays.fill(bytes, (byte) 0x5A);
    bytes[0] = -1;
    assertThat((byte[]) roundTrip(bytes)).isEqualTo(bytes);
    assertThat((byte[]) roundTrip(new byte[0])).isEmpty();
  }

  @Test
  void mapsAndListsRoundTripWithTheirContents() {
    Map<String, Object> map = new HashMap<>();
    map.put("list", new ArrayList<>(List.of(1, "two", 3.0)));
    map.put("nested", new LinkedHashMap<>(Map.of("k", List.of())));
    map.put("null", null);
    assertThat(roundTrip(map)).isEqualTo(map);
  }

  @Test
  void recordsRoundTrip() {
    assertThat(roundTrip(new Point(3, -4))).isEqualTo(new Point(3, -4));
  }

  @Test
  void nestedRecordsAndBeansRoundTrip() {
    Order order = order(7);
    assertThat(roundTrip(order)).isEqualTo(order);
  }

  @Test
  void instantBigDecimalAndUuidRoundTripExactly() {
    Instant instant = Instant.parse("2026-03-01T10:15:30.123456789Z");
    BigDecimal amount = new BigDecimal("-0.000100");
    UUID uuid = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
    assertThat(roundTrip(instant)).isEqualTo(instant);
    assertThat(roundTrip(amount)).isEqualTo(amount); // scale included
    assertThat(roundTrip(uuid)).isEqualTo(uuid);
  }

  @Test
  void sharedReferencesStayShared() {
    Point point = new Point(1, 2);
    List<Point> twice = new ArrayList<>(List.of(point, point));
    List<?> read = (List<?>) roundTrip(twice);
    assertThat(read.get(0)).isSameAs(read.get(1));
  }

  @Test
  void thePostDeserializeHookRunsOnTheValueRead() {
    Hooked read = (Hooked) roundTrip(new Hooked("hello"));
    assertThat(read.length()).isEqualTo(5);
  }

  @Test
  void aClassOutsideTheAllowListIsRefusedByName() {
    ObjectSerializer permissive =
        create(settings(ClassAllowList.defaults().with(List.of("org.example.*")), 1 << 20));
    byte[] bytes = permissive.serialize(new Gadget());

    assertThatThrownBy(() -> serializer.deserialize(bytes, getClass().getClassLoader()))
        .isInstanceOfSatisfying(
            ClassNotAllowedException.class,
            e -> assertThat(e.className()).isEqualTo(Gadget.class.getName()))
        .hasMessageContaining(Gadget.class.getName());
  }

  @Test
  void aClassOutsideTheAllowListIsRefusedInsideACollection() {
    ObjectSerializer permissive =
        create(settings(ClassAllowList.defaults().with(List.of(Gadget.class.getName())), 1 << 20));
    byte[] bytes = permissive.serialize(new ArrayList<>(List.of("ok", new Gadget())));

    assertThatThrownBy(() -> serializer.deserialize(bytes, getClass().getClassLoader()))
        .isInstanceOf(ClassNotAllowedException.class)
        .hasMessageContaining(Gadget.class.getName());
  }

  @Test
  void aStoredTypeThatGainedAndLostFieldsStillReads() {
    EvolvingV1 old = new EvolvingV1("ana", 3);
    byte[] bytes = createWithEvolvingTypeAs(EvolvingV1.class).serialize(old);

    Object read =
        createWithEvolvingTypeAs(EvolvingV2.class).deserialize(bytes, getClass().getClassLoader());

    assertThat(read).isInstanceOf(EvolvingV2.class);
    assertThat(((EvolvingV2) read).name).isEqualTo("ana");
    assertThat(((EvolvingV2) read).email).isNull();
  }

  @Test
  void classesAreResolvedWithTheGivenLoader() {
    Set<String> asked = ConcurrentHashMap.newKeySet();
    ClassLoader recording =
        new ClassLoader(getClass().getClassLoader()) {
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
  void everyTruncationFailsAsASerializationError() {
    byte[] bytes = serializer.serialize(order(1));
    for (int length = 0; length < bytes.length; length++) {
      byte[] truncated = Arrays.copyOf(bytes, length);
      assertFailsCleanlyOrReads(truncated, "truncated to " + length);
    }
  }

  @Test
  void corruptBytesFailAsASerializationErrorAndNeverExhaustMemory() {
    byte[] bytes = serializer.serialize(order(1));
    for (int i = 0; i < bytes.length; i++) {
      for (int flip : new int[] {0x01, 0x80, 0xFF}) {
        byte[] corrupt = bytes.clone();
        corrupt[i] ^= (byte) flip;
        assertFailsCleanlyOrReads(corrupt, "byte " + i + " xor " + flip);
      }
      byte[] huge = bytes.clone();
      huge[i] = (byte) 0xFF; // varints of 0xFF... declare huge lengths
      assertFailsCleanlyOrReads(huge, "byte " + i + " set to 0xFF");
    }
  }

  @Test
  void aDeclaredHugeArrayFailsWithoutAllocatingIt() {
    byte[] bytes = serializer.serialize(new byte[8]);
    for (int i = 0; i + 4 < bytes.length; i++) {
      byte[] huge = bytes.clone();
      huge[i] = (byte) 0xFF;
      huge[i + 1] = (byte) 0xFF;
      huge[i + 2] = (byte) 0xFF;
      huge[i + 3] = (byte) 0x07;
      assertFailsCleanlyOrReads(huge, "huge length at " + i);
    }
  }

  private void assertFailsCleanlyOrReads(byte[] bytes, String what) {
    try {
      serializer.deserialize(bytes, getClass().getClassLoader());
    } catch (SerializationException expected) {
      // the contract
    } catch (Throwable e) {
      fail(what + ": expected a SerializationException but got " + e, e);
    }
  }

  @Test
  void aValueLargerThanMaxBytesIsRefusedBeforeItIsRead() {
    ObjectSerializer small = create(settings(ClassAllowList.defaults(), 64));
    byte[] bytes = small.serialize(new byte[1000]);

    assertThatThrownBy(() -> small.deserialize(bytes, getClass().getClassLoader()))
        .isInstanceOf(CorruptRecordException.class)
        .hasMessageContaining("64");
  }

  @Test
  void sixtyFourVirtualThreadsShareOneSerializer() throws Exception {
    int threads = 64;
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Integer>> results = new ArrayList<>();
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int t = 0; t < threads; t++) {
        int n = t;
        results.add(
            executor.submit(
                () -> {
                  start.await();
                  int ok = 0;
                  for (int i = 0; i < 50; i++) {
                    Order order = order(n * 1000 + i);
                    if (roundTrip(order).equals(order)) {
                      ok++;
                    }
                  }
                  return ok;
                }));
      }
      start.countDown();
      for (Future<Integer> result : results) {
        assertThat(result.get()).isEqualTo(50);
      }
    }
  }
}
