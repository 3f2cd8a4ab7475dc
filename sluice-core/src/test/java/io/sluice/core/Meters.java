package io.sluice.core;

import io.sluice.core.app.Application;

/** Reads the counters tests check. */
final class Meters {

  private Meters() {}

  /** {@code sluice.flow.messages} of {@code flow} with this outcome. */
  static double outcome(Application app, String flow, String outcome) {
    return app.meterRegistry()
        .get("sluice.flow.messages")
        .tag("flow", flow)
        .tag("outcome", outcome)
        .counter()
        .count();
  }

  /** The stage counter {@code name} (a function counter) of {@code flow}'s {@code stage}. */
  static double stage(Application app, String name, String flow, String stage) {
    return app.meterRegistry()
        .get(name)
        .tag("flow", flow)
        .tag("stage", stage)
        .functionCounter()
        .count();
  }
}
