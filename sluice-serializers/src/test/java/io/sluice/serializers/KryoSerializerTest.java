package io.sluice.serializers;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.serialization.SerializerSettings;
import io.sluice.core.spi.ObjectSerializer;
import org.junit.jupiter.api.Test;

class KryoSerializerTest extends ObjectSerializerContractTest {

  @Override
  ObjectSerializer create(SerializerSettings settings) {
    return new KryoSerializer(settings);
  }

  @Override
  ObjectSerializer createWithEvolvingTypeAs(Class<?> type) {
    return new KryoSerializer(SETTINGS, kryo -> kryo.register(type, 1000));
  }

  @Test
  void itIsIdTwoFormatOne() {
    assertThat(serializer.id()).isEqualTo(2);
    assertThat(serializer.formatVersion()).isEqualTo(1);
    assertThat(serializer.name()).isEqualTo("kryo");
  }
}
