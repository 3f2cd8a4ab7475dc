package io.sluice.batch;

import io.sluice.core.ConfigProblems;
import io.sluice.core.ConfigurationException;
import io.sluice.core.Message;
import io.sluice.core.expression.Expression;
import io.sluice.core.spi.Processor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One step of a batch job's process phase: which records it takes (an {@link AcceptPolicy} and an
 * optional accept expression), and the processors each taken record goes through, in order. A
 * record a processor fails is marked failed at this step, with the error; the job goes on.
 * Immutable; made by {@link #builder(String)}.
 */
public final class BatchStep {

  private final String name;
  private final AcceptPolicy accept;
  private final Expression acceptExpression;
  private final List<Processor> processors;
  private final Aggregator aggregator;

  private BatchStep(Builder builder, Expression expression) {
    this.name = builder.name;
    this.accept = builder.accept;
    this.acceptExpression = expression;
    this.processors = List.copyOf(builder.processors);
    this.aggregator = builder.aggregator;
  }

  /** A builder of the step named {@code name}. */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** The step's name, unique in its job. */
  public String name() {
    return name;
  }

  /** Which records it takes by their failures. */
  public AcceptPolicy accept() {
    return accept;
  }

  /** The accept expression's text, or null when there is none. */
  public String acceptExpression() {
    return acceptExpression == null ? null : acceptExpression.text();
  }

  /** The processors a taken record goes through. */
  public List<Processor> processors() {
    return processors;
  }

  /** The aggregator after the processors, or null when there is none. */
  public Aggregator aggregator() {
    return aggregator;
  }

  /**
   * Whether this step takes {@code record}: its policy lets it in, and its accept expression (if
   * any) is true of it. The expression sees the record's payload as {@code payload} and {@code
   * vars.position}, {@code vars.failed} and {@code vars.error}.
   */
  public boolean takes(BatchRecord record) {
    return takes(record, Map.of());
  }

  /**
   * Whether this step takes {@code record} of an instance started with {@code parameters}, which
   * its accept expression sees as variables beside the record's own.
   */
  public boolean takes(BatchRecord record, Map<String, Object> parameters) {
    if (!accept.accepts(record)) {
      return false;
    }
    return acceptExpression == null || acceptExpression.test(message(record, parameters));
  }

  /**
   * The message a step's processors and accept expression see for {@code record}: its payload, and
   * the variables {@code position}, {@code failed} and (for a failed record) {@code error}.
   */
  public static Message message(BatchRecord record) {
    return message(record, Map.of());
  }

  /**
   * The message for {@code record} of an instance started with {@code parameters}: those as
   * variables too, the record's own ({@code position}, {@code failed}, {@code error}) winning over
   * a parameter of the same name.
   */
  public static Message message(BatchRecord record, Map<String, Object> parameters) {
    // One immutable map, which the message keeps as it is: a withVariable each copied the last.
    Map<String, Object> variables =
        record.error() == null
            ? Map.of("position", record.position(), "failed", record.failed())
            : Map.of(
                "position", record.position(), "failed", record.failed(), "error", record.error());
    if (!parameters.isEmpty()) {
      Map<String, Object> both = new java.util.HashMap<>(parameters);
      both.putAll(variables);
      variables = both;
    }
    return Message.of(record.payload()).withVariables(variables);
  }

  @Override
  public String toString() {
    return name
        + " (accept "
        + accept
        + (acceptExpression == null ? "" : " when " + acceptExpression.text())
        + ", "
        + processors.size()
        + " processor(s)"
        + (aggregator == null ? "" : ", " + aggregator)
        + ")";
  }

  /** Builds a {@link BatchStep}; {@link #build()} checks every rule. */
  public static final class Builder {
    private final String name;
    private AcceptPolicy accept = AcceptPolicy.NO_FAILURES;
    private String acceptExpression;
    private final List<Processor> processors = new ArrayList<>();
    private Aggregator aggregator;

    private Builder(String name) {
      this.name = name;
    }

    /** Which records the step takes ({@link AcceptPolicy#NO_FAILURES} unless set). */
    public Builder accept(AcceptPolicy value) {
      this.accept = value;
      return this;
    }

    /** An expression a record must make true to be taken, besides the policy. */
    public Builder acceptExpression(String value) {
      this.acceptExpression = value;
      return this;
    }

    /** Adds a processor after those added before. */
    public Builder processor(Processor value) {
      processors.add(value);
      return this;
    }

    /** Groups the processed records for a sink ({@link Aggregator}); none unless set. */
    public Builder aggregator(Aggregator value) {
      this.aggregator = value;
      return this;
    }

    /** The step; a {@link ConfigurationException} naming the step for every broken rule. */
    public BatchStep build() {
      ConfigProblems problems = new ConfigProblems();
      String where = "steps." + name;
      problems.check(
          name != null && !name.isBlank() && !name.equals(BatchRecord.INPUT),
          "steps",
          name,
          "a step needs a name other than '" + BatchRecord.INPUT + "'");
      problems.check(accept != null, where + ".accept", null, "must be set");
      problems.check(
          processors.stream().allMatch(p -> p != null),
          where + ".processors",
          null,
          "must not contain null");
      Expression expression = null;
      if (acceptExpression != null) {
        try {
          expression = Expression.compile(where + ".acceptExpression", acceptExpression);
        } catch (ConfigurationException e) {
          e.problems().forEach(problems::add);
        }
      }
      problems.throwIfAny();
      return new BatchStep(this, expression);
    }
  }
}
