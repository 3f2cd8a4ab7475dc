package io.sluice.core.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.acme.Order;
import io.sluice.core.serialization.spi.ClassAllowList;
import io.sluice.core.serialization.spi.ClassNotAllowedException;
import io.sluice.core.serialization.spi.ObjectSerializer;
import io.sluice.core.serialization.spi.SerializationException;
import io.sluice.core.serialization.spi.SerializerSettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import javax.management.BadAttributeValueExpException;
import org.junit.jupiter.api.Test;

/**
 * What only the JDK serializer refuses: JDK gadgets, deep graphs, long streams, forged array
 * lengths, proxies. The contract every serializer keeps runs in sluice-testkit.
 */
class JdkSerializerRefusesWhatItMustNotReadTest {

  private final ObjectSerializer jdk = jdk(SerializerSettings.defaults());
  private final ObjectSerializer permissive =
      jdk(
          new SerializerSettings(
              ClassAllowList.defaults()
                  .with(List.of("com.acme.*", "javax.management.*", "java.lang.*")),
              100,
              1 << 20));

  private static ObjectSerializer jdk(SerializerSettings settings) {
    return new JdkSerializerFactory().create(settings);
  }

  private static final Order ORDER = new Order("o-1", BigDecimal.TEN, List.of("x"));

  @Test
  void aJdkGadgetIsRefused() {
    byte[] bytes = permissive.serialize(new BadAttributeValueExpException("x"));
    assertThatThrownBy(() -> jdk.deserialize(bytes))
        .isInstanceOf(ClassNotAllowedException.class)
        .hasMessageContaining("'javax.management.BadAttributeValueExpException'")
        .hasMessageContaining("serialization.allow");
  }

  @Test
  void writingAClassThatCouldNotBeReadBackIsRefusedAtOnce() {
    assertThatThrownBy(() -> jdk.serialize(ORDER))
        .isInstanceOf(ClassNotAllowedException.class)
        .hasMessageContaining("com.acme.Order");
  }

  @Test
  void aValueThatIsNotSerializableIsNamedWithWhatToDo() {
    assertThatThrownBy(() -> jdk.serialize(new Object()))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("java.lang.Object")
        .hasMessageContaining("java.io.Serializable");
  }

  @Test
  void aGraphDeeperThanMaxDepthIsRefused() {
    ObjectSerializer shallow = jdk(new SerializerSettings(ClassAllowList.defaults(), 10, 1 << 20));
    List<Object> nested = new ArrayList<>();
    List<Object> current = nested;
    for (int i = 0; i < 20; i++) {
      List<Object> next = new ArrayList<>();
      current.add(next);
      current = next;
    }
    byte[] bytes = jdk.serialize(nested);
    assertThat(jdk.deserialize(bytes)).isEqualTo(nested);
    assertThatThrownBy(() -> shallow.deserialize(bytes))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("deeper than maxDepth 10");
  }

  @Test
  void aStreamLongerThanMaxBytesIsRefused() {
    ObjectSerializer small = jdk(new SerializerSettings(ClassAllowList.defaults(), 100, 1000));
    byte[] bytes = jdk.serialize(new ArrayList<>(List.of("x".repeat(600), "y".repeat(600))));
    assertThatThrownBy(() -> small.deserialize(bytes))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("longer than maxBytes 1000");
  }

  @Test
  void anArrayDeclaringMoreElementsThanItsBytesIsRefusedBeforeItIsAllocated() throws IOException {
    byte[] bytes = jdk.serialize(new long[] {1, 2, 3});
    // The length is the last int before the 24 bytes of elements.
    int at = bytes.length - 24 - 4;
    bytes[at] = 0x7F;
    assertThatThrownBy(() -> jdk.deserialize(bytes))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("an array declares " + (0x7F000003))
        .hasMessageContaining("per byte of the " + bytes.length + " bytes");
  }

  @Test
  void aHashSetWithTheSmallestLoadFactorIsStillRead() {
    java.util.HashSet<String> set = new java.util.HashSet<>(16, 0.25f);
    for (int i = 0; i < 100; i++) {
      set.add(String.valueOf((char) ('!' + i)));
    }
    assertThat(jdk.deserialize(jdk.serialize(set))).isEqualTo(set);
  }

  @Test
  void dynamicProxiesAreNeverRead() throws IOException {
    Object proxy =
        java.lang.reflect.Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] {Runnable.class}, new Handler());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ObjectOutputStream objects = new ObjectOutputStream(out)) {
      objects.writeObject(proxy);
    }
    assertThatThrownBy(() -> jdk.deserialize(out.toByteArray()))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("dynamic proxies");
  }

  @Test
  void classesAreResolvedWithTheGivenLoader() {
    byte[] bytes = permissive.serialize(ORDER);
    ClassLoader empty = new ClassLoader(null) {};
    assertThatThrownBy(() -> permissive.deserialize(bytes, empty))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("could not find class 'com.acme.Order'");
  }

  static final class Handler implements java.lang.reflect.InvocationHandler, Serializable {
    @Override
    public Object invoke(Object proxy, java.lang.reflect.Method method, Object[] args) {
      return null;
    }
  }
}
