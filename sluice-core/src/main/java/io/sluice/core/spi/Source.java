package io.sluice.core.spi;

import java.util.List;

/**
 * A source produces the messages of one flow (a directory poller, a scheduler, a queue listener)
 * and hands each to {@link SourceContext#submit}.
 */
public interface Source {

  /**
   * Starts producing. Fails with a clear error when the source cannot work (a missing directory, an
   * unknown queue). Must not block: run polling loops on threads or timers of its own.
   */
  void start(SourceContext context) throws Exception;

  /**
   * Stops producing new messages and returns promptly. Messages already submitted finish under the
   * flow's control; completion callbacks may still run after this returns.
   */
  void stop();

  /**
   * Whether this source takes messages that other flows of the same application send (a VM queue
   * listener). On a graceful stop such sources stop last, after the flows that feed them drained,
   * so a request in flight still finds its listener.
   */
  default boolean fedByOtherFlows() {
    return false;
  }

  /**
   * Whether the messages this source hands over carry a stream as payload ({@link
   * java.io.InputStream}: a streamed file, a streamed request body). A stream cannot be stored, so
   * a flow that keeps what it accepted ({@code staged} with {@code persistent}) refuses such a
   * source when it is built.
   */
  default boolean handsStreams() {
    return false;
  }

  /**
   * Processors this source asks its flow to run first on every message it hands over: the parse its
   * configuration asks for ({@code read:} on a file source or an HTTP listener). The flow's builder
   * puts them before the flow's own processors. None by default.
   */
  default List<Processor> firstProcessors() {
    return List.of();
  }

  /** A short name for logs and metrics. */
  default String name() {
    String simple = getClass().getSimpleName();
    return simple.isEmpty() ? "source" : simple;
  }
}
