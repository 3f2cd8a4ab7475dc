package io.sluice.serializers;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.serialization.SerializerSettings;
import io.sluice.core.spi.ObjectSerializer;
import org.junit.jupiter.api.Test;

class ForySerializerTest extends ObjectSerializerContractTest {

  @Override
  ObjectSerializer create(SerializerSettings settings) {
    return new ForySerializer(settings);
  }

  @Override
  ObjectSerializer createWithEvolvingTypeAs(Class<?> type) {
    return new ForySerializer(SETTINGS, fory -> fory.register(type, "io.sluice.test", "Evolving"));
  }

  @Test
  void itIsIdThreeFormatOne() {
    assertThat(serializer.id()).isEqualTo(3);
    assertThat(serializer.formatVersion()).isEqualTo(1);
    assertThat(serializer.name()).isEqualTo("fory");
  }
}
