package io.sluice.config.spi;

/**
 * What a component is in a configuration file, which decides where its key may be written and where
 * its schema fragment goes in the assembled schema.
 */
public enum ComponentKind {
  /** A flow's {@code source:} (and a batch job's {@code input.source:}). */
  SOURCE,
  /** An item of a processor list ({@code processors}, {@code sinks}, a scope's own list). */
  PROCESSOR,
  /** A processor that routes to lists of its own (none is registered yet). */
  ROUTER,
  /** A type of {@code sluice.store} ({@code sqlite}, {@code memory}): a {@link StoreComponent}. */
  STORE,
  /**
   * A kind of batch job input, written by its key under a job's {@code input:} ({@code query}); the
   * batch section maps it through {@link MappingContext#component}, and its schema joins the {@code
   * batchInput} definition.
   */
  BATCH_INPUT,
  /** A section of the file, such as {@code sluice.jobs} or {@code batch}. */
  SECTION
}
