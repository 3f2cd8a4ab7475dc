package io.sluice.serializers;

import io.sluice.core.serialization.spi.ObjectSerializer;
import io.sluice.core.serialization.spi.SerializerFactory;
import io.sluice.core.serialization.spi.SerializerSettings;

/** The factory of {@link KryoSerializer}s, named {@code kryo}; found through ServiceLoader. */
public final class KryoSerializerFactory implements SerializerFactory {

  /** A factory; ServiceLoader calls this. */
  public KryoSerializerFactory() {}

  @Override
  public String name() {
    return "kryo";
  }

  @Override
  public ObjectSerializer create(SerializerSettings settings) {
    return new KryoSerializer(settings);
  }
}
