package io.sluice.testkit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.FlowBusyException;
import io.sluice.core.Message;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.SourceContext;
import io.sluice.core.spi.TimerService;
import io.sluice.core.store.Storage;
import io.sluice.core.store.memory.MemoryStorage;
import io.sluice.core.testing.ManualClock;
import io.sluice.core.testing.ManualTimerService;
import io.sluice.core.vm.queue.VmQueues;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A source context in which the test plays the flow: it records every message a source submits,
 * with the future the source waits on, and lets the test complete that future as a flow would
 * (success, failure, or a {@link FlowBusyException} refusal). Time is a {@link ManualClock} and a
 * {@link ManualTimerService}, metrics go to a {@link SimpleMeterRegistry}, and {@link #vmQueues()}
 * are real {@link VmQueues}. Thread-safe: sources may submit from threads of their own.
 *
 * <p>It also serves as the {@link io.sluice.core.spi.FlowContext} a processor is started with.
 */
public final class RecordingSourceContext implements SourceContext {

  /** The instant the clock starts at unless a test says otherwise. */
  public static final Instant DEFAULT_START = Instant.parse("2030-03-30T23:30:00Z");

  /** The capacity of each VM queue of this context. */
  public static final int VM_QUEUE_CAPACITY = 1_000;

  /**
   * One message handed to the "flow", and the future the source waits on.
   *
   * @param message what the source submitted
   * @param result the future returned to the source; complete it with the methods below
   */
  public record Submission(Message message, CompletableFuture<Message> result) {

    /** Completes as a flow that finished the message successfully. */
    public void succeed() {
      result.complete(message);
    }

    /** Completes as a flow that failed on the message with {@code error}. */
    public void fail(Throwable error) {
      result.completeExceptionally(error);
    }

    /** Completes as a flow too busy to take the message (the source must keep it). */
    public void refuse() {
      result.completeExceptionally(
          new FlowBusyException(FLOW_NAME, "receiver", "refused by the test"));
    }

    /** Whether the future was completed, in any way. */
    public boolean isDone() {
      return result.isDone();
    }
  }

  private static final String FLOW_NAME = "test-flow";

  private final ManualClock clock;
  private final ManualTimerService timer;
  private static final StoredValues STORED_VALUES =
      StoredValues.create(SerializationConfig.defaults());

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final VmQueues vmQueues = new VmQueues(VM_QUEUE_CAPACITY, registry);
  private MemoryStorage storage;
  private final List<Submission> submissions = new CopyOnWriteArrayList<>();
  private volatile Consumer<Submission> onSubmit = submission -> {};

  /** A context whose clock starts at {@link #DEFAULT_START}, in UTC. */
  public RecordingSourceContext() {
    this(DEFAULT_START, ZoneOffset.UTC);
  }

  /** A context whose clock starts at {@code start} in {@code zone}. */
  public RecordingSourceContext(Instant start, ZoneId zone) {
    this.clock = new ManualClock(start, zone);
    this.timer = new ManualTimerService(clock);
  }

  /**
   * Sets what happens inside {@link #submit} before it returns, on the submitting thread: {@code
   * Submission::refuse} plays a flow that rejects at once (REJECT), a reaction that blocks plays
   * one that makes the source wait (WAIT). By default nothing happens and the future stays open.
   */
  public void onSubmit(Consumer<Submission> reaction) {
    this.onSubmit = reaction == null ? submission -> {} : reaction;
  }

  /** Every message submitted so far, in order (a live, thread-safe view). */
  public List<Submission> submissions() {
    return submissions;
  }

  /** The last message submitted; fails when there was none. */
  public Submission last() {
    return submissions.getLast();
  }

  /** The manual timer the sources schedule on; advance it to let time pass. */
  public ManualTimerService manualTimer() {
    return timer;
  }

  /** The manual clock behind {@link #clock()} and the timer. */
  public ManualClock manualClock() {
    return clock;
  }

  /** The value of a counter tagged with this flow's name, 0 when it was never registered. */
  public double count(String name) {
    Counter counter = registry.find(name).tag("flow", flowName()).counter();
    return counter == null ? 0 : counter.count();
  }

  /** Records the message, runs the {@link #onSubmit} reaction, and returns the future. */
  @Override
  public CompletableFuture<Message> submit(Message message) {
    Submission submission = new Submission(message, new CompletableFuture<>());
    submissions.add(submission);
    onSubmit.accept(submission);
    return submission.result();
  }

  /** Always {@code test-flow}. */
  @Override
  public String flowName() {
    return FLOW_NAME;
  }

  /** The manual clock. */
  @Override
  public Clock clock() {
    return clock;
  }

  /** The manual timer. */
  @Override
  public TimerService timer() {
    return timer;
  }

  /** An in-memory registry. */
  @Override
  public MeterRegistry meterRegistry() {
    return registry;
  }

  /** Real VM queues of {@link #VM_QUEUE_CAPACITY} entries, registered in this context's meters. */
  @Override
  public VmQueues vmQueues() {
    return vmQueues;
  }

  /**
   * Runs the chain on the calling thread, one processor after the other, and returns a future
   * already completed with the result or the first error: deterministic, unlike a real flow.
   */
  @Override
  public CompletableFuture<Message> runDetached(List<Processor> chain, Message message) {
    Message current = message;
    try {
      for (Processor processor : chain) {
        current = processor.process(current);
      }
      return CompletableFuture.completedFuture(current);
    } catch (Exception e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** The default stored values (the default serializer, no class allowed beyond the built-in). */
  @Override
  public StoredValues storedValues() {
    return STORED_VALUES;
  }

  /** An in-memory storage on the manual clock, made on first use. */
  @Override
  public synchronized Storage storage() {
    if (storage == null) {
      storage = new MemoryStorage(clock);
    }
    return storage;
  }
}
