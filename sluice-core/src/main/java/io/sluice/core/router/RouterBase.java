package io.sluice.core.router;

import io.micrometer.core.instrument.Counter;
import io.sluice.core.Message;
import io.sluice.core.expression.Expression;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Scope;
import io.sluice.core.spi.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What every router shares: its name (for errors and the {@code router} tag of its meters), the
 * chains it owns (started with it and stopped after it), its expressions' errors named, and its
 * meters: routes taken, retries, timeouts.
 */
abstract class RouterBase implements Scope {

  /** A chain's end is the scope's end, with the chain's result. */
  static final Step.Then DONE = Step::done;

  private final String kind;
  private final String name;
  private final List<List<Processor>> chains;
  private final RouterChains started;
  private FlowContext context;

  RouterBase(String kind, String name, List<List<Processor>> chains) {
    this.kind = kind;
    this.name = name == null || name.isBlank() ? kind : name;
    this.chains = chains.stream().map(List::copyOf).toList();
    this.started = new RouterChains(this.chains);
  }

  @Override
  public final String name() {
    return name;
  }

  /** The router's kind and name as errors show it: {@code choice 'by-country'}. */
  final String describe() {
    return name.equals(kind) ? kind : kind + " '" + name + "'";
  }

  final FlowContext context() {
    return Objects.requireNonNull(context, "the router was not started");
  }

  @Override
  public void start(FlowContext flowContext) throws Exception {
    this.context = flowContext;
    started.start(flowContext);
    registerMeters(flowContext);
  }

  /** Registers the router's own meters, once its context is known. */
  void registerMeters(FlowContext flowContext) {}

  @Override
  public void stop() {
    started.stop();
  }

  /** The chains the router owns, as given. */
  final List<List<Processor>> chains() {
    return chains;
  }

  /** Evaluates one of the router's expressions; a failure names the router and the message. */
  final Object evaluate(Expression expression, Message message) {
    try {
      return expression.evaluate(message);
    } catch (RuntimeException e) {
      throw RoutingException.expression(describe(), flowName(), expression, message, e);
    }
  }

  /** Evaluates a condition of the router; anything but true or false is an error naming it. */
  final boolean test(Expression expression, Message message) {
    Object value = evaluate(expression, message);
    if (value instanceof Boolean b) {
      return b;
    }
    throw RoutingException.expression(
        describe(),
        flowName(),
        expression,
        message,
        new IllegalStateException("returned " + value + " where true or false was expected"));
  }

  private String flowName() {
    return context == null ? "(none)" : context.flowName();
  }

  /** A counter of this router's, tagged with its flow and name. */
  final Counter counter(FlowContext flowContext, String meter, String description, String... tags) {
    return routerCounter(flowContext, kind, name, meter, description, tags);
  }

  /** A counter of the router {@code name} of this kind, tagged with its flow. */
  static Counter routerCounter(
      FlowContext flowContext,
      String kind,
      String name,
      String meter,
      String description,
      String... tags) {
    Counter.Builder builder =
        Counter.builder(meter)
            .tag("flow", flowContext.flowName())
            .tag("router", name)
            .tag("kind", kind)
            .description(description);
    for (int i = 0; i + 1 < tags.length; i += 2) {
      builder.tag(tags[i], tags[i + 1]);
    }
    return builder.register(flowContext.meterRegistry());
  }

  /** The names of {@code count} routes known by their number: 1, 2, 3... */
  static List<String> numbered(int count) {
    List<String> names = new ArrayList<>(count);
    for (int i = 1; i <= count; i++) {
      names.add(String.valueOf(i));
    }
    return names;
  }

  /** A counter of the routes taken, one per route name. */
  final List<Counter> routeCounters(FlowContext flowContext, List<String> routes) {
    List<Counter> counters = new ArrayList<>(routes.size());
    for (String route : routes) {
      counters.add(
          counter(
              flowContext,
              "sluice.router.routes",
              "Messages a router sent down each of its routes",
              "route",
              route));
    }
    return counters;
  }
}
