package io.sluice.core.router;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Routes that failed together ({@code ROUTING:COMPOSITE}): every route's error, by route, in the
 * message and in {@link #failures()}; each is also a suppressed exception of this one. A route's
 * message is cut to {@link #SHOWN} characters in this one's: a composite error of routers nested
 * deep (a recursion through a scatter-gather) would otherwise grow with the square of the depth.
 */
public final class CompositeRoutingException extends RoutingException {

  /** How much of each route's message this one's shows. */
  static final int SHOWN = 1_000;

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
        (route, error) -> {
          String message =
              error.getMessage() == null ? error.getClass().getName() : error.getMessage();
          text.append("; route ").append(route).append(": ");
          if (message.length() > SHOWN) {
            text.append(message, 0, SHOWN)
                .append("… (")
                .append(message.length() - SHOWN)
                .append(" more characters)");
          } else {
            text.append(message);
          }
        });
    return text.toString();
  }
}
