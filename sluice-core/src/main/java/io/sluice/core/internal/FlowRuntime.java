package io.sluice.core.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.sluice.core.FlowBusyException;
import io.sluice.core.Message;
import io.sluice.core.MessageDiscardedException;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import io.sluice.core.flow.Flow;
import io.sluice.core.flow.OnError;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Source;
import io.sluice.core.spi.SourceContext;
import io.sluice.core.store.Delivery;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.StoredMessage;
import io.sluice.core.vm.DurableQueueListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** One running flow: its engine, its in-flight count, its metrics and its lifecycle. */
final class FlowRuntime extends ServicesContext implements SourceContext {

  private final Flow flow;
  private final List<Processor> chain;
  private final Engine engine;
  private final InFlight inFlight = new InFlight();
  private final Counter completed;
  private final Counter failed;
  private final Counter refused;
  private final Counter discarded;
  private final Timer completedTime;
  private final Timer failedTime;
  private final List<Processor> started = new ArrayList<>();
  private final Map<String, CompletableFuture<Message>> waiting = new ConcurrentHashMap<>();
  private final String runId = UUID.randomUUID().toString();
  private final AtomicLong submitted = new AtomicLong();
  private volatile boolean accepting;
  private volatile DurableQueue durable;
  private DurableQueueListener feeder;

  FlowRuntime(Flow flow, Services services) {
    super(services);
    this.flow = flow;
    this.chain = flow.chain();
    MeterRegistry registry = services.registry();
    this.engine =
        switch (flow.strategy()) {
          case ProcessingStrategy.Synchronous s -> new SynchronousEngine(flow.name(), s, registry);
          case ProcessingStrategy.Staged s -> new StagedEngine(flow.name(), s, registry);
          case ProcessingStrategy.Auto a ->
              new AutoEngine(flow.name(), a, services.cpu(), registry);
        };
    this.completed = outcome(registry, "completed");
    this.failed = outcome(registry, "failed");
    this.completedTime = TIMED ? duration(registry, "completed") : null;
    this.failedTime = TIMED ? duration(registry, "failed") : null;
    this.refused = outcome(registry, "refused");
    this.discarded = outcome(registry, "discarded");
    Gauge.builder("sluice.flow.inflight", inFlight, InFlight::count)
        .tag("flow", flow.name())
        .description("Messages the flow holds")
        .register(registry);
  }

  /**
   * Whether messages' time in the flow is timed; {@code -Dsluice.metrics.flowTimers=false} turns it
   * off.
   */
  static final boolean TIMED = !"false".equals(System.getProperty("sluice.metrics.flowTimers"));

  /**
   * One message in this many is timed, chosen at random as it comes in ({@code
   * -Dsluice.metrics.flowTimerSample=1}: every one). Timing each cost a flow of three cheap
   * processors 10 to 20% of its rate (two {@code nanoTime}s and a histogram's bucket, about 150 ns,
   * against 700 for the rest); a random sample keeps the distribution, so its percentiles, at a
   * sixteenth of that. The timer's count is the sample's: {@code sluice.flow.messages} counts every
   * message.
   */
  static final int SAMPLE = Math.max(1, Integer.getInteger("sluice.metrics.flowTimerSample", 16));

  /** Whether the message coming in now is one of the timed ones. */
  static boolean timesThisOne() {
    return TIMED && (SAMPLE == 1 || ThreadLocalRandom.current().nextInt(SAMPLE) == 0);
  }

  private Timer duration(MeterRegistry registry, String outcome) {
    return Timer.builder("sluice.flow.duration")
        .tag("flow", flow.name())
        .tag("outcome", outcome)
        .description(
            "Time from a message's arrival to its end, by outcome, of a random sample of them")
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofNanos(10_000))
        .maximumExpectedValue(Duration.ofMinutes(5))
        .register(registry);
  }

  private Counter outcome(MeterRegistry registry, String outcome) {
    return Counter.builder("sluice.flow.messages")
        .tag("flow", flow.name())
        .tag("outcome", outcome)
        .description("Messages that left the flow, by outcome")
        .register(registry);
  }

  Flow flow() {
    return flow;
  }

  String name() {
    return flow.name();
  }

  List<Processor> chain() {
    return chain;
  }

  Engine engine() {
    return engine;
  }

  /** Starts every processor, then the source; on failure stops what it started and rethrows. */
  void start() throws Exception {
    List<Processor> all = new ArrayList<>(chain);
    for (OnError branch : flow.errorHandler()) {
      all.addAll(branch.processors());
    }
    try {
      for (Processor processor : all) {
        processor.start(this);
        started.add(processor);
      }
      accepting = true;
      if (flow.strategy() instanceof ProcessingStrategy.Staged staged && staged.persistent()) {
        startFeeder(staged);
      }
      if (flow.source() != null) {
        flow.source().start(this);
      }
    } catch (Exception e) {
      accepting = false;
      stopFeeder();
      stopProcessors();
      engine.shutdownNow();
      throw e;
    }
  }

  /**
   * A persistent staged flow: what the source hands over is kept in the durable queue first; one
   * consumer (FIFO) feeds it to the receiver stage and acknowledges each message when it ends.
   * Messages kept before a crash are fed first.
   */
  private void startFeeder(ProcessingStrategy.Staged staged) {
    durable =
        services
            .storage()
            .get()
            .queue(
                ProcessingStrategy.Staged.durableName(flow.name()),
                QueueOptions.DEFAULTS.withSerializer(staged.serializer()));
    ThreadingProfile receiver = staged.receiver();
    feeder =
        new DurableQueueListener(
            durable,
            "sluice-" + flow.name() + "-persistent",
            1,
            Math.max(1, receiver.maxThreadsActive() + receiver.maxQueue()),
            Duration.ofSeconds(1),
            this::fromDurable,
            services.registry());
    feeder.start();
  }

  private void stopFeeder() {
    if (feeder != null) {
      feeder.stop();
      feeder = null;
    }
    // What is still kept is processed after the next start; its senders here hear that now.
    waiting.forEach(
        (key, future) ->
            future.completeExceptionally(
                new FlowBusyException(
                    flow.name(),
                    "receiver",
                    FlowBusyException.Reason.NOT_RUNNING,
                    "the flow stopped; the message is kept and is processed after the next"
                        + " start")));
    waiting.clear();
  }

  /**
   * Feeds a kept message to the receiver stage, and its outcome to the sender still waiting. The
   * returned future fails only when the flow was busy (the message is fed again); a message the
   * flow failed or discarded has ended too, as in memory: the kept copy guards against a crash, not
   * against errors, and a discarded message fed again would only be discarded again.
   */
  private CompletableFuture<Void> fromDurable(Delivery delivery) {
    StoredMessage stored = (StoredMessage) delivery.payload();
    CompletableFuture<Message> result = enter(stored.toMessage(), true);
    String key = stored.correlationId();
    CompletableFuture<Message> sender = null;
    if (key != null && !(result.isCompletedExceptionally() && isBusy(result.exceptionNow()))) {
      sender = waiting.remove(key);
    }
    CompletableFuture<Message> waitingSender = sender;
    CompletableFuture<Void> ended = new CompletableFuture<>();
    result.whenComplete(
        (message, error) -> {
          if (isBusy(error)) {
            if (waitingSender != null) {
              waiting.put(key, waitingSender);
            }
            ended.completeExceptionally(unwrap(error));
            return;
          }
          if (waitingSender != null) {
            if (error != null) {
              waitingSender.completeExceptionally(unwrap(error));
            } else {
              waitingSender.complete(message);
            }
          }
          ended.complete(null);
        });
    return ended;
  }

  /** Refused for now, to be fed again; a discarded message is not: it ended. */
  private static boolean isBusy(Throwable error) {
    Throwable cause = unwrap(error);
    return cause instanceof FlowBusyException && !(cause instanceof MessageDiscardedException);
  }

  private static Throwable unwrap(Throwable error) {
    return error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error;
  }

  /** Whether the flow's source is fed by other flows of the application (VM queues). */
  boolean fedByOtherFlows() {
    return flow.source() != null && flow.source().fedByOtherFlows();
  }

  /** Stops the source: no new messages from it. Others already in flight go on. */
  void stopSource() {
    if (flow.source() != null) {
      flow.source().stop();
    }
    stopFeeder();
  }

  private boolean paused;

  /**
   * An operator's stop of this flow alone: its source stops taking messages (files stay in their
   * directory, a listener refuses requests, a queue's messages wait in it), a flow without a source
   * refuses what is sent to it; messages in flight go on. False when it was stopped already or the
   * application is not running.
   */
  synchronized boolean pause() {
    if (paused || !accepting) {
      return false;
    }
    paused = true;
    if (flow.source() != null) {
      flow.source().stop();
    } else {
      accepting = false;
    }
    return true;
  }

  /** Starts again what {@link #pause} stopped; false when it was not stopped. */
  synchronized boolean resume() throws Exception {
    if (!paused) {
      return false;
    }
    if (flow.source() != null) {
      flow.source().start(this);
    } else {
      accepting = true;
    }
    paused = false;
    return true;
  }

  /**
   * The durable queues this flow takes from now, with their listeners: a persistent staged flow's
   * own, a persistent VM listener's.
   */
  List<DurableQueueListener> durableListeners() {
    List<DurableQueueListener> listeners = new ArrayList<>();
    if (feeder != null) {
      listeners.add(feeder);
    }
    Source source = flow.source();
    if (source instanceof io.sluice.core.vm.VmListenerSource vm && vm.durableListener() != null) {
      listeners.add(vm.durableListener());
    }
    return listeners;
  }

  /** Whether an operator stopped this flow ({@link #pause}). */
  synchronized boolean paused() {
    return paused;
  }

  /** Refuses messages from now on; those in flight go on. */
  void stopAccepting() {
    accepting = false;
  }

  /** Waits until the flow holds no message; true when that happened in time. */
  boolean awaitIdle(Duration timeout) throws InterruptedException {
    return inFlight.awaitIdle(timeout);
  }

  int inFlightCount() {
    return inFlight.count();
  }

  /** Refuses new messages, stops the processors and the engine's threads. */
  void close(Duration timeout) throws InterruptedException {
    accepting = false;
    engine.shutdown();
    if (!engine.awaitTermination(timeout)) {
      engine.shutdownNow();
    }
    stopProcessors();
  }

  private void stopProcessors() {
    for (int i = started.size() - 1; i >= 0; i--) {
      started.get(i).stop();
    }
    started.clear();
  }

  @Override
  public CompletableFuture<Message> submit(Message message) {
    return submit(message, true);
  }

  @Override
  public CompletableFuture<Message> offer(Message message) {
    return submit(message, false);
  }

  private CompletableFuture<Message> submit(Message message, boolean mayWait) {
    DurableQueue kept = durable;
    if (kept == null) {
      return enter(message, mayWait);
    }
    if (!accepting) {
      refused.increment();
      return CompletableFuture.failedFuture(
          new FlowBusyException(
              flow.name(),
              "receiver",
              FlowBusyException.Reason.NOT_RUNNING,
              "the flow is not running"));
    }
    String key = runId + ":" + submitted.incrementAndGet();
    CompletableFuture<Message> result = new CompletableFuture<>();
    waiting.put(key, result);
    try {
      kept.enqueue(StoredMessage.of(message, key));
    } catch (RuntimeException e) {
      waiting.remove(key);
      return CompletableFuture.failedFuture(e);
    }
    return result;
  }

  /** Hands a message to the engine's receiver stage (or first processor). */
  private CompletableFuture<Message> enter(Message message, boolean mayWait) {
    // Counted first, checked second: a stop that turned accepting off and then saw nothing in
    // flight can never have a message slip in behind it.
    inFlight.enter();
    if (!accepting) {
      refused.increment();
      inFlight.exit();
      return CompletableFuture.failedFuture(
          new FlowBusyException(
              flow.name(),
              "receiver",
              FlowBusyException.Reason.NOT_RUNNING,
              "the flow is not running"));
    }
    Execution execution = new Execution(this, chain, message);
    if (!mayWait) {
      execution.offered();
    }
    engine.enter(execution);
    return execution.result();
  }

  @Override
  public Forked fork(List<Processor> forked, Message message) {
    inFlight.enter();
    Execution execution = new Execution(this, forked, message, List.of(), true);
    engine.fork(execution);
    return new Forked() {
      @Override
      public CompletableFuture<Message> result() {
        return execution.result();
      }

      @Override
      public void cancel(RuntimeException reason) {
        execution.cancel(reason);
      }
    };
  }

  @Override
  public CompletableFuture<Message> runDetached(List<Processor> detached, Message message) {
    inFlight.enter();
    Execution execution = new Execution(this, detached, message, List.of());
    engine.detach(execution);
    return execution.result();
  }

  /** The flow no longer holds the execution's message: its engine frees the room it took. */
  void released(Execution execution) {
    engine.released(execution);
  }

  void finished(Execution execution, Throwable error) {
    if (execution.forked()) {
      // A route of a message the flow already counts, not a message of its own.
      inFlight.exit();
      return;
    }
    if (error == null) {
      completed.increment();
      if (execution.started() != 0) {
        completedTime.record(System.nanoTime() - execution.started(), TimeUnit.NANOSECONDS);
      }
    } else if (error instanceof MessageDiscardedException) {
      discarded.increment();
    } else if (error instanceof FlowBusyException) {
      refused.increment();
    } else {
      failed.increment();
      if (execution.started() != 0) {
        failedTime.record(System.nanoTime() - execution.started(), TimeUnit.NANOSECONDS);
      }
    }
    inFlight.exit();
  }

  @Override
  public String flowName() {
    return flow.name();
  }
}
