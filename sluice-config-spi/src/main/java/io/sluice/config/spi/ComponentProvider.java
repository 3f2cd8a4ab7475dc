package io.sluice.config.spi;

import java.util.List;

/**
 * The components of one module, found by {@link java.util.ServiceLoader}: a module lists its
 * provider in {@code META-INF/services/io.sluice.config.spi.ComponentProvider}. The core's come
 * first; the others follow by their provider's class name, each in its own order, which is the
 * order of their keys in the schema and in messages.
 */
public interface ComponentProvider {

  /** The module's components, in the order their keys are shown. */
  List<ConfigComponent<?>> components();
}
