package io.sluice.batch.config;

import io.sluice.batch.BatchInput;
import io.sluice.config.spi.ComponentKind;
import io.sluice.config.spi.ConfigComponent;

/**
 * A kind of batch job input a module brings, written by its key under a job's {@code input:} beside
 * the built-in {@code csv}, {@code jsonLines}, {@code generator}, {@code source} and {@code
 * message} (sluice-db's {@code query}). Its schema fragment joins the {@code batchInput} definition
 * and its exactly-one-of rule; its {@link #map} is given the node under its key, so its problems
 * are reported at their lines ({@code batch[0].input.query.sql}). A module lists it in its {@code
 * ComponentProvider} as it does its sources and processors.
 */
public interface BatchInputComponent extends ConfigComponent<BatchInput> {

  @Override
  default ComponentKind kind() {
    return ComponentKind.BATCH_INPUT;
  }
}
