package io.sluice.core.router;

import io.micrometer.core.instrument.Counter;
import io.sluice.core.Message;
import io.sluice.core.expression.Expression;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Step;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code choice} router: the first {@code when} whose condition holds takes the message, else
 * {@code otherwise} (which may be empty: the message goes on unchanged). The decision is CPU_LITE
 * work and stays on the message's thread; the route's processors run where their types say.
 */
public final class Choice extends RouterBase {

  /**
   * One route of a choice.
   *
   * @param condition an expression that must give true or false
   * @param processors what runs when it gives true
   */
  public record When(Expression condition, List<Processor> processors) {
    /** Copies the list. */
    public When {
      processors = List.copyOf(processors);
    }
  }

  private final List<When> whens;
  private final List<Processor> otherwise;
  private List<Counter> taken = List.of();

  /** A choice named {@code name} (null: {@code choice}) between these routes. */
  public Choice(String name, List<When> whens, List<Processor> otherwise) {
    super("choice", name, chains(whens, otherwise));
    this.whens = List.copyOf(whens);
    this.otherwise = List.copyOf(otherwise);
    if (this.whens.isEmpty()) {
      throw new IllegalArgumentException("a choice needs at least one when");
    }
  }

  private static List<List<Processor>> chains(List<When> whens, List<Processor> otherwise) {
    List<List<Processor>> all = new ArrayList<>();
    whens.forEach(when -> all.add(when.processors()));
    all.add(otherwise);
    return all;
  }

  /** A builder for a choice named {@code name}. */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  @Override
  void registerMeters(FlowContext flowContext) {
    List<String> routes = new ArrayList<>();
    for (int i = 0; i < whens.size(); i++) {
      routes.add("when-" + (i + 1));
    }
    routes.add("otherwise");
    taken = routeCounters(flowContext, routes);
  }

  @Override
  public Step enter(Message message) {
    for (int i = 0, n = whens.size(); i < n; i++) {
      When when = whens.get(i);
      if (test(when.condition(), message)) {
        count(i);
        return when.processors().isEmpty()
            ? Step.done(message)
            : Step.run(when.processors(), message, DONE);
      }
    }
    count(whens.size());
    return otherwise.isEmpty() ? Step.done(message) : Step.run(otherwise, message, DONE);
  }

  private void count(int route) {
    if (!taken.isEmpty()) {
      taken.get(route).increment();
    }
  }

  /** The routes, in order. */
  public List<When> whens() {
    return whens;
  }

  /** What runs when no condition holds. */
  public List<Processor> otherwise() {
    return otherwise;
  }

  /** Builds a {@link Choice}. */
  public static final class Builder {
    private final String name;
    private final List<When> whens = new ArrayList<>();
    private final List<Processor> otherwise = new ArrayList<>();

    private Builder(String name) {
      this.name = name;
    }

    /** A route taken when {@code condition} (a JEXL expression) gives true. */
    public Builder when(String condition, Processor... processors) {
      whens.add(
          new When(
              Expression.compile("when[" + whens.size() + "]", condition), List.of(processors)));
      return this;
    }

    /** What runs when no condition holds. */
    public Builder otherwise(Processor... processors) {
      otherwise.addAll(List.of(processors));
      return this;
    }

    /** The choice. */
    public Choice build() {
      return new Choice(name, whens, otherwise);
    }
  }
}
