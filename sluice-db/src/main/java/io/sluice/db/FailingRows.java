package io.sluice.db;

import io.micrometer.core.instrument.Counter;
import io.sluice.core.SluiceException;
import io.sluice.core.logging.RepeatedFailureLog;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.store.ObjectStore;
import io.sluice.db.internal.Watermarks;
import org.slf4j.Logger;

/**
 * A db-poll's row that keeps failing: how many times in a row it was handed over and failed, and
 * the giving up on it after {@code maxDeliveries}, the watermark then moving past it, as a
 * persistent queue dead-letters a message (the row stays in its table; the store keeps its last
 * error under {@code dead.<watermark>}). A row is known by its watermark: without one, nothing can
 * be moved past. Failures of type {@code DB:CONNECTIVITY} are not counted. Not thread-safe: the
 * source calls it under its own lock, one poll at a time.
 */
final class FailingRows {

  private final Logger log;
  private final FlowContext context;
  private final int maxDeliveries;
  private final Counter dead;
  private final RepeatedFailureLog failures;
  private final ObjectStore store;
  private String failingKey;
  private int deliveries;

  /** The failing rows of the flow of {@code context}, given up in {@code store} (or null). */
  FailingRows(Logger log, FlowContext context, int maxDeliveries, ObjectStore store) {
    this.log = log;
    this.context = context;
    this.maxDeliveries = maxDeliveries;
    this.store = store;
    this.dead =
        Counter.builder("sluice.db.poll.dead")
            .tag("flow", context.flowName())
            .description("Rows given up after maxDeliveries")
            .register(context.meterRegistry());
    this.failures =
        new RepeatedFailureLog(
            log,
            "Flow '" + context.flowName() + "' failing on rows of its db-poll",
            context.clock());
  }

  /** A poll whose messages all completed: the rows work again. */
  void recovered() {
    failures.recovered();
  }

  /**
   * Notes that the message of the row (or page) of {@code watermark} failed with {@code cause}, the
   * first of its poll that did not complete; true when it has now been handed over {@code
   * maxDeliveries} times and the watermark moves past it.
   */
  boolean givenUp(Object watermark, Throwable cause) {
    if (connectivity(cause)) {
      failures.failed(
          "Flow '{}' could not reach a database for the row of watermark {} of its db-poll; the"
              + " watermark stays before it and it is handed over again at the next poll (not"
              + " counted towards maxDeliveries): {}",
          context.flowName(),
          watermark,
          describe(cause));
      return false;
    }
    String key = watermark == null || store == null ? null : Watermarks.encode(watermark);
    if (key == null || !key.equals(failingKey)) {
      failingKey = key;
      deliveries = 0;
    }
    deliveries++;
    if (key == null || maxDeliveries == 0 || deliveries < maxDeliveries) {
      failures.failed(
          "Flow '{}' failed on the row of watermark {} of its db-poll (delivery {}{}); the"
              + " watermark stays before it and it is handed over again at the next poll: {}",
          context.flowName(),
          watermark,
          deliveries,
          maxDeliveries == 0 || key == null ? "" : " of " + maxDeliveries,
          describe(cause));
      return false;
    }
    dead.increment();
    log.warn(
        "Flow '{}' failed {} times on the row of watermark {} of its db-poll; the watermark moves"
            + " past it (the row stays in its table; the store '{}' keeps it under '{}'): {}",
        context.flowName(),
        deliveries,
        watermark,
        store.name(),
        "dead." + key,
        describe(cause));
    try {
      store.put(
          "dead." + key,
          "given up after "
              + deliveries
              + " deliveries at "
              + context.clock().instant()
              + ": "
              + cause);
    } catch (RuntimeException e) {
      log.warn("Could not note the row given up in store '{}': {}", store.name(), e.toString());
    }
    failingKey = null;
    deliveries = 0;
    return true;
  }

  /** The error for a log line: its error type first when it has one ({@code DB:CONNECTIVITY}). */
  static String describe(Throwable error) {
    return error instanceof SluiceException typed && typed.errorType() != null
        ? typed.errorType() + " " + typed.getMessage()
        : error.toString();
  }

  /** Whether {@code error} is a database out of reach, anywhere along its causes. */
  private static boolean connectivity(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof SluiceException e && DbException.CONNECTIVITY.equals(e.errorType())) {
        return true;
      }
    }
    return false;
  }
}
