package io.sluice.core.router;

import io.micrometer.core.instrument.Counter;
import io.sluice.core.Message;
import io.sluice.core.expression.Expression;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Step;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The {@code parallel-foreach} scope: its processors run once per element of a collection (the
 * payload, or what {@code collection} gives), at most {@code maxConcurrency} elements at once, and
 * the result's payload is the list of their results' payloads in the elements' order. Elements are
 * read as room frees up. An element that fails fails the whole with every failed element's error,
 * by its number from 1 ({@code ROUTING:COMPOSITE}); a timeout cuts what still runs ({@code
 * ROUTING:TIMEOUT}).
 */
public final class ParallelForeach extends RouterBase {

  /** How many elements run at once unless told. */
  public static final int DEFAULT_MAX_CONCURRENCY = 256;

  private final Expression collection;
  private final int maxConcurrency;
  private final Duration timeout;
  private final List<Processor> processors;
  private Counter timeouts;

  /**
   * A parallel foreach.
   *
   * @param name for errors and meters (null: {@code parallel-foreach})
   * @param collection what to go over, or null for the payload
   * @param maxConcurrency elements run at once, at least 1
   * @param timeout how long the whole may take, or null for no limit
   * @param processors what runs for each element
   */
  public ParallelForeach(
      String name,
      Expression collection,
      int maxConcurrency,
      Duration timeout,
      List<Processor> processors) {
    super("parallel-foreach", name, List.of(processors));
    if (maxConcurrency < 1) {
      throw new IllegalArgumentException(
          "maxConcurrency must be at least 1, was " + maxConcurrency);
    }
    this.collection = collection;
    this.maxConcurrency = maxConcurrency;
    this.timeout = timeout;
    this.processors = List.copyOf(processors);
  }

  @Override
  void registerMeters(FlowContext flowContext) {
    timeouts =
        counter(flowContext, "sluice.router.timeouts", "Router runs cut short by their timeout");
  }

  @Override
  public Step enter(Message message) {
    Object source = collection == null ? message.payload() : evaluate(collection, message);
    Iterator<?> elements = Iteration.of(source);
    Iterator<Fan.Route> routes =
        new Iterator<>() {
          private int number;

          @Override
          public boolean hasNext() {
            return elements.hasNext();
          }

          @Override
          public Fan.Route next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            number++;
            return new Fan.Route(
                String.valueOf(number), processors, message.withPayload(elements.next()));
          }
        };
    Fan fan = new Fan(describe(), context(), routes, maxConcurrency, timeouts);
    return Step.await(
        fan.start(timeout, outcomes -> collected(message, outcomes))
            .whenComplete((step, error) -> Iteration.close(source)),
        fan::cancel);
  }

  private Step collected(Message message, List<Fan.Outcome> outcomes) {
    List<Object> results = new ArrayList<>(outcomes.size());
    Map<String, Throwable> failures = new LinkedHashMap<>();
    for (Fan.Outcome outcome : outcomes) {
      if (outcome.error() == null) {
        results.add(outcome.result().payload());
      } else {
        failures.put(outcome.route(), outcome.error());
      }
    }
    if (!failures.isEmpty()) {
      throw new CompositeRoutingException(describe(), failures);
    }
    return Step.done(message.withPayload(results));
  }

  /** What runs for each element. */
  public List<Processor> processors() {
    return processors;
  }
}
