package io.sluice.core.spi;

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

  /** A short name for logs and metrics. */
  default String name() {
    String simple = getClass().getSimpleName();
    return simple.isEmpty() ? "source" : simple;
  }
}
