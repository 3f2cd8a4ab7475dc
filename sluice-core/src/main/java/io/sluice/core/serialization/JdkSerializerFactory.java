package io.sluice.core.serialization;

import io.sluice.core.serialization.spi.ObjectSerializer;
import io.sluice.core.serialization.spi.SerializerFactory;
import io.sluice.core.serialization.spi.SerializerSettings;

/**
 * The factory of the {@code jdk} serializer (id 1): Java's own serialization, read through an
 * {@link java.io.ObjectInputFilter} that admits only the allow-list's classes and bounds the
 * graph's depth, the stream's bytes, its references and its array lengths. Registered with {@link
 * java.util.ServiceLoader} by sluice-core.
 */
public final class JdkSerializerFactory implements SerializerFactory {

  /** The name used in configuration. */
  public static final String NAME = "jdk";

  /** A factory; {@link java.util.ServiceLoader} calls this. */
  public JdkSerializerFactory() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public ObjectSerializer create(SerializerSettings settings) {
    return new JdkSerializer(settings);
  }
}
