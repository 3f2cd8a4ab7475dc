package io.sluice.serializers;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.serialization.spi.ObjectSerializer;
import io.sluice.core.serialization.spi.SerializerFactory;
import io.sluice.core.serialization.spi.SerializerSettings;
import io.sluice.serializers.fixtures.EvolvingV1;
import io.sluice.serializers.fixtures.EvolvingV2;
import io.sluice.testkit.ObjectSerializerContractTest;
import java.util.List;
import org.example.notallowed.Gadget;
import org.junit.jupiter.api.Test;

/** The serializer contract, run against Fory, and what only Fory does. */
class ForySerializerTest extends ObjectSerializerContractTest {

  @Override
  protected SerializerFactory factory() {
    return new ForySerializerFactory();
  }

  /** A Fory that stores {@code type} under the name every version of it shares. */
  private static ObjectSerializer withEvolvingTypeAs(Class<?> type) {
    return new ForySerializer(
        SerializerSettings.defaults(), fory -> fory.register(type, "io.sluice.test", "Evolving"));
  }

  @Test
  void aStoredTypeThatGainedAndLostFieldsStillReads() {
    byte[] bytes = withEvolvingTypeAs(EvolvingV1.class).serialize(new EvolvingV1("ana", 3));

    Object read = withEvolvingTypeAs(EvolvingV2.class).deserialize(bytes, loader());

    assertThat(read).isInstanceOf(EvolvingV2.class);
    assertThat(((EvolvingV2) read).name).isEqualTo("ana");
    assertThat(((EvolvingV2) read).email).isNull();
  }

  /**
   * Fory will not write a class on its own disallowed list, whatever the allow-list says; so a
   * {@link Gadget} is written under the gadget's name (as Fory writes every class registered by
   * name: package, then simple name), which is what a forged stream would hold.
   */
  @Override
  protected byte[] bytesNaming(String className, ClassLoader standIns) {
    int dot = className.lastIndexOf('.');
    ObjectSerializer forger =
        new ForySerializer(
            allowing(List.of(Gadget.class.getName()), 1 << 20),
            fory ->
                fory.register(
                    Gadget.class, className.substring(0, dot), className.substring(dot + 1)));
    return forger.serialize(new Gadget());
  }

  @Test
  void itIsIdThreeFormatOne() {
    assertThat(serializer.id()).isEqualTo(3);
    assertThat(serializer.formatVersion()).isEqualTo(1);
    assertThat(serializer.name()).isEqualTo("fory");
  }
}
