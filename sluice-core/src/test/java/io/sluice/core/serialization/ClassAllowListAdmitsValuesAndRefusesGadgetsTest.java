package io.sluice.core.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.ConfigurationException;
import io.sluice.core.serialization.spi.ClassAllowList;
import io.sluice.core.serialization.spi.ClassNotAllowedException;
import io.sluice.core.serialization.spi.SerializerSettings;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClassAllowListAdmitsValuesAndRefusesGadgetsTest {

  private final ClassAllowList defaults = ClassAllowList.defaults();

  @Test
  void theDefaultsAdmitJavaValueTypesCollectionsAndSluiceTypes() {
    List<Class<?>> admitted =
        List.of(
            Integer.class,
            Long.class,
            Boolean.class,
            Character.class,
            Double.class,
            String.class,
            Number.class,
            Enum.class,
            java.math.BigDecimal.class,
            java.math.BigInteger.class,
            java.math.RoundingMode.class,
            java.time.Instant.class,
            java.time.ZonedDateTime.class,
            java.time.DayOfWeek.class,
            java.util.UUID.class,
            java.net.URI.class,
            java.util.ArrayList.class,
            java.util.HashMap.class,
            java.util.TreeMap.class,
            java.util.LinkedHashSet.class,
            java.util.concurrent.ConcurrentHashMap.class,
            List.of(1).getClass(),
            List.of(1, 2, 3).getClass(),
            Map.of("a", 1).getClass(),
            Set.of().getClass(),
            java.util.Collections.unmodifiableList(new java.util.ArrayList<>()).getClass(),
            java.util.Arrays.asList(1, 2).getClass(),
            SerializerSettings.class);
    assertThat(admitted)
        .allSatisfy(type -> assertThat(defaults.isAllowed(type.getName())).isTrue());
    assertThat(defaults.isAllowed("java.time.Ser")).isTrue();
    assertThat(defaults.isAllowed("java.util.CollSer")).isTrue();
    assertThat(defaults.isAllowed("int")).isTrue();
  }

  @Test
  void arraysAreAdmittedWhenTheirComponentTypeIs() {
    assertThat(defaults.isAllowed(int[][].class.getName())).isTrue();
    assertThat(defaults.isAllowed(String[].class.getName())).isTrue();
    assertThat(defaults.isAllowed(byte[].class.getName())).isTrue();
    assertThat(defaults.isAllowed("[Lcom.acme.Order;")).isFalse();
    assertThat(defaults.with(List.of("com.acme.*")).isAllowed("[[Lcom.acme.Order;")).isTrue();
    assertThat(defaults.isAllowed("[X")).isFalse();
    assertThat(defaults.isAllowed("[Ljava.lang.String")).isFalse();
    assertThat(defaults.isAllowed("[")).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "org.apache.commons.collections.functors.InvokerTransformer",
        "org.apache.commons.collections4.functors.InstantiateTransformer",
        "com.sun.rowset.JdbcRowSetImpl",
        "java.lang.Runtime",
        "java.lang.ProcessBuilder",
        "java.lang.Class",
        "java.lang.Thread",
        "java.lang.reflect.Proxy",
        "javax.management.BadAttributeValueExpException",
        "java.net.URL",
        "java.net.InetAddress",
        "javax.script.ScriptEngineManager",
        "org.springframework.beans.factory.ObjectFactory",
        "com.acme.Order",
        "[Ljava.lang.Runtime;",
        "",
      })
  void wellKnownGadgetsAndUnlistedClassesAreRefused(String className) {
    assertThat(defaults.isAllowed(className)).isFalse();
  }

  @Test
  void aRefusedClassIsNamedWithTheSettingThatWouldAllowIt() {
    assertThatThrownBy(() -> defaults.check("com.acme.Order"))
        .isInstanceOf(ClassNotAllowedException.class)
        .hasMessageContaining("'com.acme.Order'")
        .hasMessageContaining("serialization.allow: [com.acme.*]")
        .extracting(e -> ((ClassNotAllowedException) e).className())
        .isEqualTo("com.acme.Order");
  }

  @Test
  void aPackagePatternAdmitsThePackageAndItsSubpackagesButNotItsNeighbours() {
    ClassAllowList list = defaults.with(List.of("com.acme.*"));
    assertThat(list.isAllowed("com.acme.Order")).isTrue();
    assertThat(list.isAllowed("com.acme.billing.Invoice$Line")).isTrue();
    assertThat(list.isAllowed("com.acmecorp.Order")).isFalse();
    assertThat(list.isAllowed("com.acme")).isFalse();
    assertThat(list.patterns()).containsExactly("com.acme.*");
  }

  @Test
  void anExactNameAndANestedPatternAdmitOnlyWhatTheyName() {
    ClassAllowList list = defaults.with(List.of("com.acme.Order", "com.acme.Cart$*"));
    assertThat(list.isAllowed("com.acme.Order")).isTrue();
    assertThat(list.isAllowed("com.acme.OrderLine")).isFalse();
    assertThat(list.isAllowed("com.acme.Order$Line")).isFalse();
    assertThat(list.isAllowed("com.acme.Cart$Item")).isTrue();
    assertThat(list.isAllowed("com.acme.Cart")).isFalse();
  }

  @Test
  void invalidPatternsAreAllReportedWithTheirPositions() {
    assertThatThrownBy(() -> defaults.with(List.of("com.acme.*", "*", "com..acme", " ")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("3 errors")
        .hasMessageContaining("serialization.allow[1]: value '*' would admit every class")
        .hasMessageContaining(
            "serialization.allow[2]: value 'com..acme' is not a binary class name")
        .hasMessageContaining("serialization.allow[3]");
  }

  @Test
  void aRefusedArraySuggestsThePackageOfItsComponentType() {
    assertThatThrownBy(() -> defaults.check("[[Lcom.acme.Order;"))
        .hasMessageContaining("serialization.allow: [com.acme.*]");
  }
}
