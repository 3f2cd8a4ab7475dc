package io.sluice.core.health;

import java.util.Objects;

/**
 * The state of one part of a running application, as {@code /health/ready} shows it.
 *
 * @param component what was checked: {@code store}, {@code flow orders: http-listener
 *     127.0.0.1:8080}, {@code job node node-1}
 * @param up whether it can do its job now
 * @param detail what was seen, in words: the last error when it is down
 */
public record HealthCheck(String component, boolean up, String detail) {

  /** Checks the parts are there. */
  public HealthCheck {
    Objects.requireNonNull(component, "component");
    Objects.requireNonNull(detail, "detail");
  }

  /** {@code component} is up; {@code detail} says how it looks. */
  public static HealthCheck up(String component, String detail) {
    return new HealthCheck(component, true, detail);
  }

  /** {@code component} is down; {@code detail} says why. */
  public static HealthCheck down(String component, String detail) {
    return new HealthCheck(component, false, detail);
  }
}
