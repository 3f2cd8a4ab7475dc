package io.sluice.core.internal;

import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.Processor;
import java.util.stream.Collectors;

/** The effective configuration of a flow in one line, for the start-up log. */
final class Describe {

  private Describe() {}

  static String flow(Flow flow) {
    return "source="
        + (flow.source() == null ? "none" : flow.source().name())
        + ", processors="
        + names(flow.processors().stream().map(Processor::name))
        + ", sinks="
        + names(flow.sinks().stream().map(Processor::name))
        + ", errorHandler="
        + flow.errorHandler().size()
        + " branch(es)"
        + ", strategy="
        + strategy(flow.strategy());
  }

  static String strategy(ProcessingStrategy strategy) {
    return switch (strategy) {
      case ProcessingStrategy.Synchronous s ->
          "synchronous(receiver " + profile(s.receiver()) + async(s.async()) + ")";
      case ProcessingStrategy.Staged s ->
          "staged("
              + (s.persistent() ? "persistent, " : "")
              + "receiver "
              + profile(s.receiver())
              + ", flow "
              + profile(s.flow())
              + ", dispatcher "
              + profile(s.dispatcher())
              + async(s.async())
              + ")";
      case ProcessingStrategy.Auto a ->
          "auto(maxInFlight "
              + a.maxInFlight()
              + ", backpressure "
              + a.backpressure()
              + ", limit "
              + a.initialLimit()
              + ".."
              + a.maxLimit()
              + ", cpu threads "
              + Runtime.getRuntime().availableProcessors()
              + ")";
    };
  }

  /** The async scopes' pool, when it is not the built-in one. */
  private static String async(ThreadingProfile p) {
    return p.equals(ThreadingProfile.DEFAULT) ? "" : ", async " + profile(p);
  }

  private static String profile(ThreadingProfile p) {
    return "[threads "
        + p.maxThreadsActive()
        + ", queue "
        + p.maxQueue()
        + ", "
        + p.exhaustedAction()
        + (p.exhaustedAction().name().equals("WAIT") ? " " + p.waitTimeout() : "")
        + ", idle "
        + p.idleTtl()
        + (p.maxThreadsIdle() > 0 ? " (" + p.maxThreadsIdle() + " kept)" : "")
        + "]";
  }

  private static String names(java.util.stream.Stream<String> names) {
    return names.collect(Collectors.joining(", ", "[", "]"));
  }
}
