package io.sluice.core.file;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.Message;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.SourceContext;
import io.sluice.core.spi.TimerService;
import io.sluice.core.testing.ManualClock;
import io.sluice.core.testing.ManualTimerService;
import io.sluice.core.vm.VmQueues;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A source context for driving one source by hand: manual clock and timer, an in-memory meter
 * registry, and every submitted message kept with a future the test completes as the flow would.
 */
public final class RecordingSourceContext implements SourceContext {

  /** One message handed to the "flow", and the future the source is waiting on. */
  public record Submission(Message message, CompletableFuture<Message> result) {
    /** Completes as a flow that finished the message. */
    public void succeed() {
      result.complete(message);
    }

    /** Completes as a flow that failed on the message. */
    public void fail(Throwable error) {
      result.completeExceptionally(error);
    }
  }

  private final ManualClock clock;
  private final ManualTimerService timer;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<Submission> submissions = new CopyOnWriteArrayList<>();

  /** A context whose clock starts at {@code start} in {@code zone}. */
  public RecordingSourceContext(Instant start, ZoneId zone) {
    this.clock = new ManualClock(start, zone);
    this.timer = new ManualTimerService(clock);
  }

  /** Every message submitted so far, in order. */
  public List<Submission> submissions() {
    return submissions;
  }

  /** The last message submitted. */
  public Submission last() {
    return submissions.getLast();
  }

  /** The manual timer (and through it the clock). */
  public ManualTimerService manualTimer() {
    return timer;
  }

  /** The manual clock. */
  public ManualClock manualClock() {
    return clock;
  }

  /** The value of a counter tagged with this flow, 0 when it was never registered. */
  public double count(String name) {
    var counter = registry.find(name).tag("flow", flowName()).counter();
    return counter == null ? 0 : counter.count();
  }

  @Override
  public CompletableFuture<Message> submit(Message message) {
    Submission submission = new Submission(message, new CompletableFuture<>());
    submissions.add(submission);
    return submission.result();
  }

  @Override
  public String flowName() {
    return "test-flow";
  }

  @Override
  public Clock clock() {
    return clock;
  }

  @Override
  public TimerService timer() {
    return timer;
  }

  @Override
  public MeterRegistry meterRegistry() {
    return registry;
  }

  @Override
  public VmQueues vmQueues() {
    throw new UnsupportedOperationException("no VM queues in a recording context");
  }

  @Override
  public CompletableFuture<Message> runDetached(List<Processor> chain, Message message) {
    throw new UnsupportedOperationException("nothing runs detached in a recording context");
  }
}
