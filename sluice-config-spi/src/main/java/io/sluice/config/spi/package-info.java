/**
 * What a component module implements to be configured from YAML: a {@link
 * io.sluice.config.spi.ComponentProvider} listing its {@link
 * io.sluice.config.spi.ConfigComponent}s, each with its key, kind, schema fragment and mapping, and
 * the configuration tree they read ({@link io.sluice.config.spi.ConfigNode}) with the file's
 * problems ({@link io.sluice.config.spi.ProblemCollector}).
 */
package io.sluice.config.spi;
