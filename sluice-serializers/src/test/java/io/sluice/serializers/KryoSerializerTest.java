package io.sluice.serializers;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.serialization.spi.ObjectSerializer;
import io.sluice.core.serialization.spi.SerializerFactory;
import io.sluice.core.serialization.spi.SerializerSettings;
import io.sluice.serializers.fixtures.EvolvingV1;
import io.sluice.serializers.fixtures.EvolvingV2;
import io.sluice.testkit.ObjectSerializerContractTest;
import org.junit.jupiter.api.Test;

/** The serializer contract, run against Kryo, and what only Kryo does. */
class KryoSerializerTest extends ObjectSerializerContractTest {

  @Override
  protected SerializerFactory factory() {
    return new KryoSerializerFactory();
  }

  /** A Kryo that stores {@code type} under the name every version of it shares. */
  private static ObjectSerializer withEvolvingTypeAs(Class<?> type) {
    return new KryoSerializer(SerializerSettings.defaults(), kryo -> kryo.register(type, 1000));
  }

  @Test
  void aStoredTypeThatGainedAndLostFieldsStillReads() {
    byte[] bytes = withEvolvingTypeAs(EvolvingV1.class).serialize(new EvolvingV1("ana", 3));

    Object read = withEvolvingTypeAs(EvolvingV2.class).deserialize(bytes, loader());

    assertThat(read).isInstanceOf(EvolvingV2.class);
    assertThat(((EvolvingV2) read).name).isEqualTo("ana");
    assertThat(((EvolvingV2) read).email).isNull();
  }

  @Test
  void itIsIdTwoFormatOne() {
    assertThat(serializer.id()).isEqualTo(2);
    assertThat(serializer.formatVersion()).isEqualTo(1);
    assertThat(serializer.name()).isEqualTo("kryo");
  }
}
