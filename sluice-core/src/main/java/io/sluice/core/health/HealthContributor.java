package io.sluice.core.health;

import java.util.List;

/**
 * A part of an application that can say whether it can do its job: a source (an HTTP listener
 * bound, a durable queue's consumers alive), the store, a job node. Asked on a virtual thread with
 * a deadline, so a check may block on a round trip; one that does not answer in time counts as
 * down.
 */
public interface HealthContributor {

  /** The state of this part now, one check per thing it depends on; empty when it has none. */
  List<HealthCheck> health();

  /** What a check that did not answer in time is reported as. */
  default String component() {
    return getClass().getSimpleName();
  }

  /** A contributor named {@code component} whose checks {@code health} gives. */
  static HealthContributor of(
      String component, java.util.function.Supplier<List<HealthCheck>> health) {
    return new HealthContributor() {
      @Override
      public List<HealthCheck> health() {
        return health.get();
      }

      @Override
      public String component() {
        return component;
      }
    };
  }
}
