package io.sluice.core.spi;

/** What a processor spends its time on, which decides where the {@code auto} strategy runs it. */
public enum ProcessingType {
  /** Routing, logging, small maps: runs on the thread that holds the message. */
  CPU_LITE,
  /** Transformation, parsing, crypto: runs on the shared platform pool sized to the cores. */
  CPU_INTENSIVE,
  /** Files, JDBC, remote calls: runs on virtual threads, gated by the flow's adaptive limit. */
  BLOCKING_IO
}
