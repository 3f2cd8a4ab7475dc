package io.sluice.http.internal;

import io.sluice.core.spi.SourceContext;
import java.util.Set;

/**
 * One listener's place on a server: the path and methods it answers and the flow it feeds.
 *
 * @param pattern the path
 * @param methods the methods, upper case; empty for every method
 * @param flow the flow's context, which takes the requests
 * @param streaming whether request bodies reach the flow as streams while they arrive
 */
public record Route(
    PathPattern pattern, Set<String> methods, SourceContext flow, boolean streaming) {

  /** Copies the methods. */
  public Route {
    methods = Set.copyOf(methods);
  }

  /** Whether this route answers {@code method}. */
  boolean allows(String method) {
    return methods.isEmpty() || methods.contains(method);
  }
}
