package io.sluice.core.router;

import io.micrometer.core.instrument.Counter;
import io.sluice.core.Message;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Step;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code scatter-gather} router: every route runs on the message at once, beside the others,
 * and the result's payload is a map from each route's name to its result's payload, in route order.
 * The message waits for them without a thread under {@code auto}. A route that fails fails the
 * whole with every failed route's error ({@code ROUTING:COMPOSITE}); when failures are tolerated
 * the map holds the routes that succeeded and the {@code errorsVariable} variable maps each failed
 * route to its error's message. A timeout cuts the routes still running ({@code ROUTING:TIMEOUT}).
 */
public final class ScatterGather extends RouterBase {

  /** Whether failed routes leave the others' results standing unless told. */
  public static final boolean DEFAULT_TOLERATE_FAILURES = false;

  /** The variable holding tolerated failures unless told. */
  public static final String DEFAULT_ERRORS_VARIABLE = "routeErrors";

  /**
   * One route.
   *
   * @param name its key in the result (null: its number, from 1)
   * @param processors what it runs
   */
  public record Route(String name, List<Processor> processors) {
    /** Copies the list. */
    public Route {
      processors = List.copyOf(processors);
    }
  }

  private final List<String> names;
  private final List<Route> routes;
  private final Duration timeout;
  private final boolean tolerateFailures;
  private final String errorsVariable;
  private Counter timeouts;
  private List<Counter> taken = List.of();

  /**
   * A scatter-gather.
   *
   * @param name for errors and meters (null: {@code scatter-gather})
   * @param routes at least two
   * @param timeout how long the routes may take together, or null for no limit
   * @param tolerateFailures whether failed routes leave the others' results standing
   * @param errorsVariable where tolerated failures are put
   */
  public ScatterGather(
      String name,
      List<Route> routes,
      Duration timeout,
      boolean tolerateFailures,
      String errorsVariable) {
    super("scatter-gather", name, routes.stream().map(Route::processors).toList());
    if (routes.size() < 2) {
      throw new IllegalArgumentException("a scatter-gather needs at least two routes");
    }
    this.routes = List.copyOf(routes);
    List<String> named = new ArrayList<>();
    for (int i = 0; i < routes.size(); i++) {
      String routeName = routes.get(i).name();
      named.add(routeName == null ? String.valueOf(i + 1) : routeName);
    }
    this.names = List.copyOf(named);
    this.timeout = timeout;
    this.tolerateFailures = tolerateFailures;
    this.errorsVariable = errorsVariable;
  }

  @Override
  void registerMeters(FlowContext flowContext) {
    taken = routeCounters(flowContext, names);
    timeouts =
        counter(flowContext, "sluice.router.timeouts", "Router runs cut short by their timeout");
  }

  @Override
  public Step enter(Message message) {
    List<Fan.Route> fanned = new ArrayList<>(routes.size());
    for (int i = 0; i < routes.size(); i++) {
      fanned.add(new Fan.Route(names.get(i), routes.get(i).processors(), message));
    }
    taken.forEach(Counter::increment);
    Fan fan = new Fan(describe(), context(), fanned.iterator(), routes.size(), timeouts);
    return Step.await(fan.start(timeout, outcomes -> gathered(message, outcomes)), fan::cancel);
  }

  private Step gathered(Message message, List<Fan.Outcome> outcomes) {
    Map<String, Object> results = new LinkedHashMap<>();
    Map<String, Throwable> failures = new LinkedHashMap<>();
    for (Fan.Outcome outcome : outcomes) {
      if (outcome.error() == null) {
        results.put(outcome.route(), outcome.result().payload());
      } else {
        failures.put(outcome.route(), outcome.error());
      }
    }
    if (!failures.isEmpty() && !tolerateFailures) {
      throw new CompositeRoutingException(describe(), failures);
    }
    Message gathered = message.withPayload(results);
    if (!failures.isEmpty()) {
      Map<String, String> errors = new LinkedHashMap<>();
      failures.forEach(
          (route, error) ->
              errors.put(
                  route,
                  error.getMessage() == null ? error.getClass().getName() : error.getMessage()));
      gathered = gathered.withVariable(errorsVariable, errors);
    }
    return Step.done(gathered);
  }

  /** The routes, in order. */
  public List<Route> routes() {
    return routes;
  }

  /** A builder for a scatter-gather named {@code name} (null: {@code scatter-gather}). */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Builds a {@link ScatterGather}: no timeout, failures not tolerated unless told. */
  public static final class Builder {
    private final String name;
    private final List<Route> routes = new ArrayList<>();
    private Duration timeout;
    private boolean tolerateFailures = DEFAULT_TOLERATE_FAILURES;
    private String errorsVariable = DEFAULT_ERRORS_VARIABLE;

    private Builder(String name) {
      this.name = name;
    }

    /** A route named {@code routeName} (its key in the result). */
    public Builder route(String routeName, Processor... processors) {
      routes.add(new Route(routeName, List.of(processors)));
      return this;
    }

    /** A route known by its number. */
    public Builder route(Processor... processors) {
      return route(null, processors);
    }

    /** How long the routes may take together. */
    public Builder timeout(Duration value) {
      this.timeout = value;
      return this;
    }

    /** Failed routes leave the others' results, their errors in {@code variable}. */
    public Builder tolerateFailures(String variable) {
      this.tolerateFailures = true;
      this.errorsVariable = variable;
      return this;
    }

    /** The scatter-gather. */
    public ScatterGather build() {
      return new ScatterGather(name, routes, timeout, tolerateFailures, errorsVariable);
    }
  }
}
