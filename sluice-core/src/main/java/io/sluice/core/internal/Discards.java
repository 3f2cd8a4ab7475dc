package io.sluice.core.internal;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.sluice.core.ExhaustedAction;
import io.sluice.core.MessageDiscardedException;
import io.sluice.core.logging.RepeatedFailureLog;
import java.time.Clock;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The messages one stage dropped under DISCARD or DISCARD_OLDEST: counted ({@code
 * sluice.stage.discarded}), logged once and then summarised (a full stage may drop thousands a
 * second), and the error each sender gets.
 */
final class Discards {

  private static final Logger LOG = LoggerFactory.getLogger(Discards.class);

  private final String flow;
  private final String stage;
  private final LongAdder count = new LongAdder();
  private final RepeatedFailureLog log;

  Discards(String flow, String stage, MeterRegistry registry) {
    this.flow = flow;
    this.stage = stage;
    this.log =
        new RepeatedFailureLog(
            LOG,
            "Flow '" + flow + "' discarding messages at its full " + stage + " stage",
            Clock.systemUTC());
    FunctionCounter.builder("sluice.stage.discarded", count, LongAdder::sum)
        .tags(Tags.of("flow", flow, "stage", stage))
        .description("Messages dropped by DISCARD or DISCARD_OLDEST")
        .register(registry);
  }

  /** Counts and logs one message dropped by DISCARD; returns the error its sender gets. */
  MessageDiscardedException discard(String state) {
    return discard(state, ExhaustedAction.DISCARD);
  }

  /**
   * Counts and logs one message dropped by {@code action} (DISCARD: the new one, DISCARD_OLDEST:
   * the one that waited longest); returns the error its sender gets.
   */
  MessageDiscardedException discard(String state, ExhaustedAction action) {
    count.increment();
    MessageDiscardedException reason = new MessageDiscardedException(flow, stage, state, action);
    log.failed("{}", reason.getMessage());
    return reason;
  }

  long count() {
    return count.sum();
  }
}
