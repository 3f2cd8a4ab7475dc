package io.sluice.serializers;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.serialization.spi.CodecFactory;
import io.sluice.core.serialization.spi.ObjectSerializer;
import io.sluice.core.serialization.spi.SerializerFactory;
import io.sluice.core.serialization.spi.SerializerSettings;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ServiceLoadingTest {

  @Test
  void serviceLoaderFindsTheKryoAndForySerializerFactories() {
    var factories =
        ServiceLoader.load(SerializerFactory.class).stream()
            .map(ServiceLoader.Provider::get)
            .collect(Collectors.toMap(SerializerFactory::name, f -> f));

    assertThat(factories).containsKeys("kryo", "fory");
    ObjectSerializer kryo = factories.get("kryo").create(SerializerSettings.defaults());
    ObjectSerializer fory = factories.get("fory").create(SerializerSettings.defaults());
    assertThat(kryo.id()).isEqualTo(2);
    assertThat(fory.id()).isEqualTo(3);
  }

  @Test
  void serviceLoaderFindsTheLz4AndZstdCodecFactories() {
    var factories =
        ServiceLoader.load(CodecFactory.class).stream()
            .map(ServiceLoader.Provider::get)
            .collect(Collectors.toMap(CodecFactory::name, f -> f));

    assertThat(factories).containsKeys("lz4", "zstd");
    assertThat(factories.get("lz4").create(null).id()).isEqualTo(3);
    assertThat(factories.get("zstd").create(null).id()).isEqualTo(4);
  }
}
