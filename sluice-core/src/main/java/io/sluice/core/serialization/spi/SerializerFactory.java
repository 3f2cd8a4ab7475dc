package io.sluice.core.serialization.spi;

/**
 * Makes a serializer from settings; found with {@link java.util.ServiceLoader} (list the
 * implementation in {@code META-INF/services/io.sluice.core.serialization.spi.SerializerFactory}).
 */
public interface SerializerFactory {

  /** The name of the serializers it makes, as in configuration ({@code kryo}). */
  String name();

  /** A serializer with these settings. */
  ObjectSerializer create(SerializerSettings settings);
}
