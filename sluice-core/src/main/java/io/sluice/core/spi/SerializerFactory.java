package io.sluice.core.spi;

import io.sluice.core.serialization.SerializerSettings;

/**
 * Makes a serializer from settings; found with {@link java.util.ServiceLoader} (list the
 * implementation in {@code META-INF/services/io.sluice.core.spi.SerializerFactory}).
 */
public interface SerializerFactory {

  /** The name of the serializers it makes, as in configuration ({@code kryo}). */
  String name();

  /** A serializer with these settings. */
  ObjectSerializer create(SerializerSettings settings);
}
