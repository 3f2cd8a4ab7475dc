package io.sluice.core.router;

import io.micrometer.core.instrument.Counter;
import io.sluice.core.FlowError;
import io.sluice.core.Message;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Step;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code first-successful} router: tries its routes in order on the message as it entered, and
 * ends with the first that succeeds; when every route failed it fails with each one's error ({@code
 * ROUTING:COMPOSITE}).
 */
public final class FirstSuccessful extends RouterBase {

  private final List<List<Processor>> routes;
  private List<Counter> taken = List.of();

  /** A first-successful named {@code name} (null: {@code first-successful}) over these routes. */
  public FirstSuccessful(String name, List<List<Processor>> routes) {
    super("first-successful", name, routes);
    if (routes.isEmpty()) {
      throw new IllegalArgumentException("a first-successful needs at least one route");
    }
    this.routes = chains();
  }

  @Override
  void registerMeters(FlowContext flowContext) {
    taken = routeCounters(flowContext, numbered(routes.size()));
  }

  @Override
  public Step enter(Message message) {
    return new Attempts(message).route(0);
  }

  /** One message's way through the routes. */
  private final class Attempts implements Step.Then {
    private final Message original;
    private final Map<String, Throwable> failures = new LinkedHashMap<>();
    private int route;

    Attempts(Message original) {
      this.original = original;
    }

    Step route(int next) {
      route = next;
      if (!taken.isEmpty()) {
        taken.get(next).increment();
      }
      return Step.run(routes.get(next), original, this);
    }

    @Override
    public Step completed(Message result) {
      return Step.done(result);
    }

    @Override
    public Step failed(FlowError error, Message message) {
      failures.put(String.valueOf(route + 1), error.cause());
      if (route + 1 < routes.size()) {
        return route(route + 1);
      }
      throw new CompositeRoutingException(describe(), failures);
    }
  }
}
