package io.sluice.core.router;

import io.micrometer.core.instrument.Counter;
import io.sluice.core.Message;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Step;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code round-robin} router: each message takes the next route in turn, the first again after
 * the last, however many messages have passed.
 */
public final class RoundRobin extends RouterBase {

  private final List<List<Processor>> routes;
  private final AtomicLong turn;
  private List<Counter> taken = List.of();

  /** A round-robin named {@code name} (null: {@code round-robin}) over these routes. */
  public RoundRobin(String name, List<List<Processor>> routes) {
    this(name, routes, 0);
  }

  /**
   * A round-robin whose count of messages starts at {@code first} (tests start it near a limit).
   */
  RoundRobin(String name, List<List<Processor>> routes, long first) {
    super("round-robin", name, routes);
    if (routes.isEmpty()) {
      throw new IllegalArgumentException("a round-robin needs at least one route");
    }
    this.routes = chains();
    this.turn = new AtomicLong(first);
  }

  @Override
  void registerMeters(FlowContext flowContext) {
    taken = routeCounters(flowContext, numbered(routes.size()));
  }

  @Override
  public Step enter(Message message) {
    // A long count does not wrap in the life of any process, so the turns stay even.
    int route = (int) Long.remainderUnsigned(turn.getAndIncrement(), routes.size());
    if (!taken.isEmpty()) {
      taken.get(route).increment();
    }
    return Step.run(routes.get(route), message, DONE);
  }
}
