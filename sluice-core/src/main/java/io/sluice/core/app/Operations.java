package io.sluice.core.app;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.SluiceException;
import io.sluice.core.flow.Flow;
import io.sluice.core.store.Delivery;
import io.sluice.core.store.StoredMessage;
import io.sluice.core.vm.DurableQueueListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What an operator sees of a running application and does to it, whatever reaches it (JMX, the
 * management port's API, the console): its flows and their figures, stop and start of a flow, the
 * durable queues its flows take from, their dead letters, requeued or dropped.
 */
public final class Operations {

  /** The longest payload text a dead letter shows. */
  public static final int PAYLOAD_SHOWN = 2_000;

  private final Application app;
  private final FlowRates rates = new FlowRates();

  /** The operations of {@code app} (started, for its queues to be open). */
  public Operations(Application app) {
    this.app = app;
  }

  /**
   * A flow as an operator sees it.
   *
   * @param name its name
   * @param strategy synchronous, staged or auto
   * @param stopped whether an operator stopped it
   * @param inFlight messages it holds now
   * @param completed messages that completed
   * @param failed messages that failed
   * @param refused messages refused at the door
   * @param discarded messages an exhausted stage dropped
   * @param rate messages that ended (completed or failed) per second, over the last few seconds
   *     between reads of the flows (0 at the first read)
   * @param p50Millis the median time from a message's arrival to its completion, in milliseconds,
   *     from the sampled timer {@code sluice.flow.duration} since the start; null before any
   *     message was timed or with the timers off
   * @param p99Millis the 99th percentile of the same, null likewise
   * @param limit the adaptive limit on its concurrent BLOCKING_IO calls now, for an {@code auto}
   *     flow; null for the other strategies
   */
  public record FlowView(
      String name,
      String strategy,
      boolean stopped,
      int inFlight,
      long completed,
      long failed,
      long refused,
      long discarded,
      double rate,
      Double p50Millis,
      Double p99Millis,
      Integer limit) {}

  /**
   * A durable queue a flow takes from.
   *
   * @param name its name in the store
   * @param flow the flow that takes from it
   * @param depth messages in it, ready or locked
   * @param inFlight messages handed to the flow whose work has not ended
   * @param deadLetters its dead letters
   */
  public record QueueView(String name, String flow, long depth, int inFlight, long deadLetters) {}

  /**
   * A dead letter.
   *
   * @param id its id in the queue
   * @param deliveries how often it was taken
   * @param reason why it is dead
   * @param payload its payload as text, cut to {@link #PAYLOAD_SHOWN} characters; null when its
   *     bytes cannot be read
   */
  public record DeadLetter(long id, int deliveries, String reason, String payload) {}

  /** Every flow, in the order of the configuration. */
  public List<FlowView> flows() {
    return app.flows().stream().map(this::view).toList();
  }

  /** The flow {@code name}, if there is one. */
  public Optional<FlowView> flow(String name) {
    return app.flows().stream().filter(f -> f.name().equals(name)).findFirst().map(this::view);
  }

  private FlowView view(Flow flow) {
    String name = flow.name();
    long completed = outcome(name, "completed");
    long failed = outcome(name, "failed");
    Timer timer =
        app.meterRegistry()
            .find("sluice.flow.duration")
            .tag("flow", name)
            .tag("outcome", "completed")
            .timer();
    HistogramSnapshot latency = timer == null ? null : timer.takeSnapshot();
    Gauge limit =
        app.meterRegistry()
            .find("sluice.stage.limit")
            .tag("flow", name)
            .tag("stage", "auto")
            .gauge();
    return new FlowView(
        name,
        strategy(flow.strategy()),
        app.flowStopped(name),
        app.inFlight(name),
        completed,
        failed,
        outcome(name, "refused"),
        outcome(name, "discarded"),
        rates.rate(name, completed + failed, System.nanoTime()),
        Latency.percentile(latency, 0.50),
        Latency.percentile(latency, 0.99),
        limit == null || Double.isNaN(limit.value()) ? null : (int) limit.value());
  }

  private static String strategy(ProcessingStrategy strategy) {
    return strategy.getClass().getSimpleName().toLowerCase(Locale.ROOT);
  }

  private long outcome(String flow, String outcome) {
    Counter counter =
        app.meterRegistry()
            .find("sluice.flow.messages")
            .tag("flow", flow)
            .tag("outcome", outcome)
            .counter();
    return counter == null ? 0 : (long) counter.count();
  }

  /** Stops the flow's source; false when stopped already. Fails naming the flows there are. */
  public boolean stopFlow(String name) {
    return app.stopFlow(name);
  }

  /** Starts a flow an operator stopped; false when it was not stopped. */
  public boolean startFlow(String name) {
    return app.startFlow(name);
  }

  /** Every durable queue a flow takes from now. */
  public List<QueueView> queues() {
    List<QueueView> queues = new ArrayList<>();
    for (Map.Entry<String, List<DurableQueueListener>> flow : app.durableListeners().entrySet()) {
      for (DurableQueueListener listener : flow.getValue()) {
        queues.add(view(flow.getKey(), listener));
      }
    }
    return queues;
  }

  /** The queue {@code name}, if a flow takes from it now. */
  public Optional<QueueView> queue(String name) {
    // Counts that one queue only (each view counts its queue's rows in the store).
    for (Map.Entry<String, List<DurableQueueListener>> flow : app.durableListeners().entrySet()) {
      for (DurableQueueListener listener : flow.getValue()) {
        if (listener.queue().name().equals(name)) {
          return Optional.of(view(flow.getKey(), listener));
        }
      }
    }
    return Optional.empty();
  }

  private static QueueView view(String flow, DurableQueueListener listener) {
    return new QueueView(
        listener.queue().name(),
        flow,
        listener.queue().size(),
        listener.outstanding(),
        listener.queue().deadLetterCount());
  }

  /** Up to {@code max} (1 to 1,000) dead letters of {@code queue}, oldest first. */
  public List<DeadLetter> deadLetters(String queue, int max) {
    List<DeadLetter> letters = new ArrayList<>();
    for (Delivery dead : listener(queue).queue().deadLetters(Math.max(1, Math.min(max, 1000)))) {
      // A flow's queue keeps whole messages: the operator wants the payload they carried.
      Object kept =
          dead.payload() instanceof StoredMessage message ? message.payload() : dead.payload();
      String payload = kept == null ? null : String.valueOf(kept);
      if (payload != null && payload.length() > PAYLOAD_SHOWN) {
        payload = payload.substring(0, PAYLOAD_SHOWN - 1) + "…";
      }
      letters.add(
          new DeadLetter(
              dead.id(),
              dead.deliveryCount(),
              dead.deadReason() == null ? "taken too often" : dead.deadReason(),
              payload));
    }
    return letters;
  }

  /** Puts dead letter {@code id} of {@code queue} back; false when it is no longer one. */
  public boolean requeueDeadLetter(String queue, long id) {
    return listener(queue).queue().requeueDeadLetter(id);
  }

  /** Deletes dead letter {@code id} of {@code queue}; false when it is no longer one. */
  public boolean dropDeadLetter(String queue, long id) {
    return listener(queue).queue().dropDeadLetter(id);
  }

  private DurableQueueListener listener(String queue) {
    for (List<DurableQueueListener> listeners : app.durableListeners().values()) {
      for (DurableQueueListener listener : listeners) {
        if (listener.queue().name().equals(queue)) {
          return listener;
        }
      }
    }
    throw new SluiceException(
        "No flow takes from a durable queue named '"
            + queue
            + "'; the queues are "
            + queues().stream().map(QueueView::name).toList());
  }
}
