package io.sluice.core.router;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Routes that failed together ({@code ROUTING:COMPOSITE}): every route's error, by route, in the
 * message and in {@link #failures()}; each is also a suppressed exception of this one.
 */
public final class CompositeRoutingException extends RoutingException {

  private final Map<String, Throwable> failures;

  /** The routes of {@code router} that failed, by route name, in route order. */
  public CompositeRoutingException(String router, Map<String, Throwable> failures) {
    super("ROUTING:COMPOSITE", describe(router, failures), null);
    this.failures = Collections.unmodifiableMap(new LinkedHashMap<>(failures));
    failures.values().forEach(this::addSuppressed);
  }

  /** Every failed route's error, by route name. */
  public Map<String, Throwable> failures() {
    return failures;
  }

  private static String describe(String router, Map<String, Throwable> failures) {
    StringBuilder text =
        new StringBuilder(router)
            .append(": ")
            .append(failures.size())
            .append(failures.size() == 1 ? " route failed" : " routes failed");
    failures.forEach(
        (route, error) ->
            text.append("; route ")
                .append(route)
                .append(": ")
                .append(
                    error.getMessage() == null ? error.getClass().getName() : error.getMessage()));
    return text.toString();
  }
}
