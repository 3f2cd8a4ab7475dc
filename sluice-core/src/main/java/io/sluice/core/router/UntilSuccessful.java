package io.sluice.core.router;

import io.micrometer.core.instrument.Counter;
import io.sluice.core.Backoff;
import io.sluice.core.FlowError;
import io.sluice.core.Message;
import io.sluice.core.flow.OnError;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Step;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The {@code until-successful} scope: runs its processors on the message as it entered, and when
 * they fail with an error it retries (any, or those {@code retryOn} names: class names or error
 * types, as error handlers match them), runs them again after the backoff's delay, up to {@code
 * maxRetries} times; then it fails with {@code ROUTING:RETRY_EXHAUSTED}, the last error its cause.
 * An error it does not retry goes on at once. Under {@code auto} the wait holds no thread.
 */
public final class UntilSuccessful extends RouterBase {

  /** Retries after the first try unless told. */
  public static final int DEFAULT_MAX_RETRIES = 5;

  /** The delay before each retry unless told: 1 s, doubling, at most 1 min. */
  public static final Backoff DEFAULT_BACKOFF =
      new Backoff(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(1));

  private final int maxRetries;
  private final Backoff backoff;
  private final List<String> retryOn;
  private final List<Processor> processors;
  private Counter retries;
  private Counter exhausted;

  /**
   * An until-successful.
   *
   * @param name for errors and meters (null: {@code until-successful})
   * @param maxRetries retries after the first try, 0 or more
   * @param backoff the delay before each retry
   * @param retryOn the errors retried (class names or error types); empty retries every error
   * @param processors what runs
   */
  public UntilSuccessful(
      String name,
      int maxRetries,
      Backoff backoff,
      List<String> retryOn,
      List<Processor> processors) {
    super("until-successful", name, List.of(processors));
    if (maxRetries < 0) {
      throw new IllegalArgumentException("maxRetries must be 0 or more, was " + maxRetries);
    }
    this.maxRetries = maxRetries;
    this.backoff = backoff;
    this.retryOn = List.copyOf(retryOn);
    this.processors = List.copyOf(processors);
  }

  @Override
  void registerMeters(FlowContext flowContext) {
    retries = counter(flowContext, "sluice.router.retries", "Retries a router made");
    exhausted =
        counter(
            flowContext, "sluice.router.exhausted", "Router runs that failed after every retry");
  }

  @Override
  public Step enter(Message message) {
    return Step.run(processors, message, new Tries(message));
  }

  /** One message's tries. */
  private final class Tries implements Step.Then {
    private final Message original;
    private int retried;

    Tries(Message original) {
      this.original = original;
    }

    @Override
    public Step completed(Message result) {
      return Step.done(result);
    }

    @Override
    public Step failed(FlowError error, Message message) throws Exception {
      Throwable cause = error.cause();
      if (!retried(cause)) {
        throw Step.rethrow(cause);
      }
      if (retried == maxRetries) {
        if (exhausted != null) {
          exhausted.increment();
        }
        throw new RoutingException(
            "ROUTING:RETRY_EXHAUSTED",
            describe()
                + " gave up on message "
                + original.id()
                + " after "
                + (retried + 1)
                + (retried == 0 ? " try" : " tries")
                + ": "
                + error.message(),
            cause);
      }
      retried++;
      if (retries != null) {
        retries.increment();
      }
      CompletableFuture<Step> again = new CompletableFuture<>();
      context()
          .timer()
          .schedule(
              backoff.delay(retried), () -> again.complete(Step.run(processors, original, this)));
      return Step.await(again);
    }

    private boolean retried(Throwable cause) {
      return retryOn.isEmpty() || OnError.named(retryOn, cause);
    }
  }

  /** What runs. */
  public List<Processor> processors() {
    return processors;
  }

  /** A builder for an until-successful named {@code name} (null: {@code until-successful}). */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * Builds an until-successful: {@link #DEFAULT_MAX_RETRIES} retries after {@link
   * #DEFAULT_BACKOFF}, every error retried, in memory, unless told.
   */
  public static final class Builder {
    private final String name;
    private int maxRetries = DEFAULT_MAX_RETRIES;
    private Backoff backoff = DEFAULT_BACKOFF;
    private final List<String> retryOn = new ArrayList<>();
    private final List<Processor> processors = new ArrayList<>();
    private boolean persistent;
    private String serializer;

    private Builder(String name) {
      this.name = name;
    }

    /** Retries after the first try. */
    public Builder maxRetries(int value) {
      this.maxRetries = value;
      return this;
    }

    /** The delay before each retry. */
    public Builder backoff(Backoff value) {
      this.backoff = value;
      return this;
    }

    /** The errors retried: class names or error types; none named retries every error. */
    public Builder retryOn(String... types) {
      retryOn.addAll(List.of(types));
      return this;
    }

    /** Appends processors. */
    public Builder processors(Processor... values) {
      processors.addAll(List.of(values));
      return this;
    }

    /**
     * Keeps waiting messages in the application's store, written with the named serializer (null:
     * the default); the flow goes on at once ({@link PersistentUntilSuccessful}).
     */
    public Builder persistent(String serializerName) {
      this.persistent = true;
      this.serializer = serializerName;
      return this;
    }

    /** The scope: an {@link UntilSuccessful}, or a {@link PersistentUntilSuccessful}. */
    public Processor build() {
      return persistent
          ? new PersistentUntilSuccessful(
              name, maxRetries, backoff, retryOn, processors, serializer)
          : new UntilSuccessful(name, maxRetries, backoff, retryOn, processors);
    }
  }
}
