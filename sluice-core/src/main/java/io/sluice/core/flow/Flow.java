package io.sluice.core.flow;

import io.sluice.core.ConfigProblems;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Source;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A flow: a source, the processors each message goes through, the sinks it ends in, what happens on
 * error, and the strategy that spreads the work over threads.
 *
 * <p>Immutable; built with {@link #builder(String)}, which reports every broken rule at once.
 *
 * @param name unique within the application
 * @param source where messages come from, or null for a flow that is only called (a VM queue
 *     request-reply target, for example, still has a source; a sub-flow would not)
 * @param processors the steps, in order
 * @param sinks where messages end; in the {@code staged} strategy they run on the dispatcher stage
 * @param errorHandler the error branches, tried in order; when none matches the error propagates
 * @param strategy how the work is spread over threads
 */
public record Flow(
    String name,
    Source source,
    List<Processor> processors,
    List<Processor> sinks,
    List<OnError> errorHandler,
    ProcessingStrategy strategy) {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");

  /** Copies the lists and checks the rules. */
  public Flow {
    ConfigProblems problems = new ConfigProblems();
    problems.check(
        name != null && NAME.matcher(name).matches(),
        "name",
        name,
        "must start with a letter or digit and hold only letters, digits, '.', '_' and '-'");
    problems.check(processors != null, "processors", null, "is required (may be empty)");
    problems.check(sinks != null, "sinks", null, "is required (may be empty)");
    problems.check(errorHandler != null, "errorHandler", null, "is required (may be empty)");
    problems.check(strategy != null, "strategy", null, "is required");
    problems.check(
        !(source != null
            && source.handsStreams()
            && strategy instanceof ProcessingStrategy.Staged staged
            && staged.persistent()),
        "strategy",
        "staged, persistent",
        "cannot keep the streams its source hands over ("
            + (source == null ? "" : source.name())
            + "): a stream cannot be stored; read whole files or bodies, or drop persistent");
    problems.throwIfAny();
    processors = List.copyOf(processors);
    sinks = List.copyOf(sinks);
    errorHandler = List.copyOf(errorHandler);
  }

  /** A builder for a flow with this name. */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Processors followed by sinks: everything a message goes through. */
  public List<Processor> chain() {
    List<Processor> all = new ArrayList<>(processors.size() + sinks.size());
    all.addAll(processors);
    all.addAll(sinks);
    return all;
  }

  /** Builds a {@link Flow}. */
  public static final class Builder {
    private final String name;
    private Source source;
    private final List<Processor> processors = new ArrayList<>();
    private final List<Processor> sinks = new ArrayList<>();
    private final List<OnError> errorHandler = new ArrayList<>();
    private ProcessingStrategy strategy = ProcessingStrategy.defaultStrategy();

    private Builder(String name) {
      this.name = name;
    }

    /** Where messages come from. */
    public Builder source(Source value) {
      this.source = value;
      return this;
    }

    /** Appends a processor. */
    public Builder processor(Processor value) {
      processors.add(value);
      return this;
    }

    /** Appends a sink. */
    public Builder sink(Processor value) {
      sinks.add(value);
      return this;
    }

    /** Appends an error branch. */
    public Builder onError(OnError value) {
      errorHandler.add(value);
      return this;
    }

    /** The processing strategy ({@code auto} unless set). */
    public Builder strategy(ProcessingStrategy value) {
      this.strategy = value;
      return this;
    }

    /**
     * The flow, the processors its source asks to run first ({@link Source#firstProcessors()})
     * before its own; fails listing every broken rule.
     */
    public Flow build() {
      List<Processor> all = processors;
      if (source != null && !source.firstProcessors().isEmpty()) {
        all = new ArrayList<>(source.firstProcessors());
        all.addAll(processors);
      }
      return new Flow(name, source, all, sinks, errorHandler, strategy);
    }
  }
}
