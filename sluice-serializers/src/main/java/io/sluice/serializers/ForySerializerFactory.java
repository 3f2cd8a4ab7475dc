package io.sluice.serializers;

import io.sluice.core.serialization.spi.ObjectSerializer;
import io.sluice.core.serialization.spi.SerializerFactory;
import io.sluice.core.serialization.spi.SerializerSettings;

/** The factory of {@link ForySerializer}s, named {@code fory}; found through ServiceLoader. */
public final class ForySerializerFactory implements SerializerFactory {

  /** A factory; ServiceLoader calls this. */
  public ForySerializerFactory() {}

  @Override
  public String name() {
    return "fory";
  }

  @Override
  public ObjectSerializer create(SerializerSettings settings) {
    return new ForySerializer(settings);
  }
}
