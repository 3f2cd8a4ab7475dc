package io.sluice.core.router;

import io.micrometer.core.instrument.Counter;
import io.sluice.core.Backoff;
import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.flow.OnError;
import io.sluice.core.logging.RepeatedFailureLog;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.Delivery;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.StoredMessage;
import io.sluice.core.vm.DeadLetterException;
import io.sluice.core.vm.DurableQueueListener;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code until-successful} scope with {@code persistent: true}, as Mule 3's asynchronous one:
 * the message is committed to a durable queue of the application's store and the flow goes on at
 * once with it unchanged; a listener runs the processors on it detached, and a failure it retries
 * is delivered again after the backoff's delay (kept in the store: a restart resumes the waiting
 * messages), up to {@code maxRetries} times, then the message goes to the queue's dead letters. An
 * error it does not retry sends it to the dead letters at once, with the reason. The queue is named
 * after the flow and the scope ({@code until-successful.<flow>.<name>}), so the name must stay the
 * same from one run to the next.
 */
public final class PersistentUntilSuccessful implements Processor {

  private static final Logger LOG = LoggerFactory.getLogger(PersistentUntilSuccessful.class);

  /** How many messages the listener holds at once. */
  private static final int OUTSTANDING = 64;

  private final String name;
  private final int maxRetries;
  private final Backoff backoff;
  private final List<String> retryOn;
  private final List<Processor> processors;
  private final String serializer;
  private final RouterChains chains;
  private FlowContext context;
  private DurableQueue queue;
  private DurableQueueListener listener;
  private Counter retries;
  private Counter exhausted;
  private RepeatedFailureLog failures;

  /**
   * A persistent until-successful.
   *
   * @param name the scope's name, required: its queue is named after it
   * @param maxRetries retries after the first try, 0 or more
   * @param backoff the delay before each retry
   * @param retryOn the errors retried (class names or error types); empty retries every error
   * @param processors what runs
   * @param serializer the named serializer the waiting messages are written with, or null
   */
  public PersistentUntilSuccessful(
      String name,
      int maxRetries,
      Backoff backoff,
      List<String> retryOn,
      List<Processor> processors,
      String serializer) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(
          "a persistent until-successful needs a name: its queue in the store is named after it");
    }
    if (maxRetries < 0 || maxRetries == Integer.MAX_VALUE) {
      // The queue delivers a message maxRetries + 1 times, which must be an int.
      throw new IllegalArgumentException(
          "maxRetries must be from 0 to " + (Integer.MAX_VALUE - 1) + ", was " + maxRetries);
    }
    this.name = name;
    this.maxRetries = maxRetries;
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.retryOn = List.copyOf(retryOn);
    this.processors = List.copyOf(processors);
    this.serializer = serializer;
    this.chains = new RouterChains(List.of(this.processors));
  }

  /** The queue a flow's persistent until-successful named {@code name} keeps its messages in. */
  public static String queueName(String flow, String name) {
    return "until-successful." + flow + "." + name;
  }

  @Override
  public void start(FlowContext flowContext) throws Exception {
    this.context = flowContext;
    chains.start(flowContext);
    this.failures =
        new RepeatedFailureLog(
            LOG,
            "until-successful '" + name + "' of flow '" + flowContext.flowName() + "'",
            flowContext.clock());
    retries =
        RouterBase.routerCounter(
            flowContext,
            "until-successful",
            name,
            "sluice.router.retries",
            "Retries a router made");
    exhausted =
        RouterBase.routerCounter(
            flowContext,
            "until-successful",
            name,
            "sluice.router.exhausted",
            "Router runs that failed after every retry");
    queue =
        flowContext
            .storage()
            .queue(
                queueName(flowContext.flowName(), name),
                QueueOptions.DEFAULTS.withMaxDeliveries(maxRetries + 1).withSerializer(serializer));
    listener =
        new DurableQueueListener(
            queue,
            "sluice-" + flowContext.flowName() + "-" + name,
            1,
            OUTSTANDING,
            delivery -> backoff.delay(delivery.deliveryCount()),
            this::attempt,
            flowContext.meterRegistry());
    listener.start();
  }

  @Override
  public void stop() {
    if (listener != null) {
      listener.stop();
      listener = null;
    }
    chains.stop();
  }

  /** Commits the message to the queue and lets the flow go on with it unchanged. */
  @Override
  public Message process(Message message) {
    DurableQueue kept = queue;
    if (kept == null) {
      throw new IllegalStateException("until-successful '" + name + "' was not started");
    }
    kept.enqueue(StoredMessage.of(message));
    return message;
  }

  /** One try of a kept message: its outcome tells the listener to ack, retry or bury it. */
  private CompletableFuture<?> attempt(Delivery delivery) {
    Message message = ((StoredMessage) delivery.payload()).toMessage();
    return context
        .runDetached(processors, message)
        .handle(
            (result, error) -> {
              if (error == null) {
                failures.recovered();
                return null;
              }
              Throwable cause =
                  error instanceof CompletionException c && c.getCause() != null
                      ? c.getCause()
                      : error;
              if (!retryOn.isEmpty() && !OnError.named(retryOn, cause)) {
                throw new DeadLetterException(
                    "until-successful '" + name + "' does not retry " + cause, cause);
              }
              if (delivery.deliveryCount() > maxRetries) {
                exhausted.increment();
                failures.failed(
                    "until-successful '{}' gave up on message {} after {} tries: {}; it is in the"
                        + " dead letters of queue '{}'",
                    name,
                    message.id(),
                    delivery.deliveryCount(),
                    cause.toString(),
                    queue.name());
              } else {
                retries.increment();
              }
              throw new SluiceException("try " + delivery.deliveryCount() + " failed", cause);
            });
  }

  /** The queue the waiting messages are kept in. */
  public DurableQueue queue() {
    return queue;
  }

  @Override
  public ProcessingType processingType() {
    // A commit to the store.
    return ProcessingType.BLOCKING_IO;
  }

  @Override
  public String name() {
    return name;
  }

  /** What runs. */
  public List<Processor> processors() {
    return processors;
  }
}
