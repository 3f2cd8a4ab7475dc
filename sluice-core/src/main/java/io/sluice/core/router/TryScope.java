package io.sluice.core.router;

import io.sluice.core.Message;
import io.sluice.core.flow.OnError;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Step;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code try} scope: runs its processors with error handlers of its own. An error they take
 * ends the scope as the branch says ({@code onErrorContinue}: the flow goes on with the branch's
 * result; {@code onErrorPropagate}: the error goes on after the branch), so an error can be handled
 * without ending the flow; an error none takes goes on out of the scope.
 */
public final class TryScope extends RouterBase {

  private final List<Processor> processors;
  private final List<OnError> errorHandler;
  private final Step.Then then;

  /** A try named {@code name} (null: {@code try}) running these processors with these branches. */
  public TryScope(String name, List<Processor> processors, List<OnError> errorHandler) {
    super("try", name, chains(processors, errorHandler));
    this.processors = List.copyOf(processors);
    this.errorHandler = List.copyOf(errorHandler);
    this.then = OnError.handledBy(this.errorHandler);
  }

  private static List<List<Processor>> chains(
      List<Processor> processors, List<OnError> errorHandler) {
    List<List<Processor>> all = new ArrayList<>();
    all.add(processors);
    errorHandler.forEach(branch -> all.add(branch.processors()));
    return all;
  }

  @Override
  public Step enter(Message message) {
    return Step.run(processors, message, then);
  }

  /** What runs. */
  public List<Processor> processors() {
    return processors;
  }

  /** The scope's error branches. */
  public List<OnError> errorHandler() {
    return errorHandler;
  }

  /** A builder for a try named {@code name} (null: {@code try}). */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Builds a {@link TryScope}. */
  public static final class Builder {
    private final String name;
    private final List<Processor> processors = new ArrayList<>();
    private final List<OnError> errorHandler = new ArrayList<>();

    private Builder(String name) {
      this.name = name;
    }

    /** Appends processors. */
    public Builder processors(Processor... values) {
      processors.addAll(List.of(values));
      return this;
    }

    /** Appends an error branch. */
    public Builder onError(OnError branch) {
      errorHandler.add(branch);
      return this;
    }

    /** The try. */
    public TryScope build() {
      return new TryScope(name, processors, errorHandler);
    }
  }
}
