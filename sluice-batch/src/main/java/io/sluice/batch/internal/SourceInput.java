package io.sluice.batch.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.batch.BatchInput;
import io.sluice.batch.BatchInputException;
import io.sluice.batch.BatchRecord;
import io.sluice.core.FlowBusyException;
import io.sluice.core.Message;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Source;
import io.sluice.core.spi.SourceContext;
import io.sluice.core.spi.TimerService;
import io.sluice.core.store.Storage;
import io.sluice.core.vm.queue.VmQueues;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The messages a flow source submits, as records. The source submits into a bounded hand-over
 * (submit waits while it is full); a message completes once the loader stored the block it went
 * into, so the source acknowledges only what is stored. The run gives the input its context ({@link
 * #bind}) before opening it.
 */
public final class SourceInput implements BatchInput {

  /** How long the loader waits for a record before it stores the block it has. */
  static final Duration LINGER = Duration.ofMillis(20);

  /** Messages submitted and not yet read by the loader, at most. */
  static final int HAND_OVER = 2_000;

  private final Source source;
  private final Duration quiet;
  private volatile FlowContext context;

  /** The messages {@code source} submits, ending once it submitted nothing for {@code quiet}. */
  public SourceInput(Source source, Duration quiet) {
    if (!quiet.isPositive()) {
      throw new IllegalArgumentException("quiet must be a positive duration, was " + quiet);
    }
    this.source = source;
    this.quiet = quiet;
  }

  /** The services the source runs on: the run's application's, named for the job's input. */
  public void bind(FlowContext context) {
    this.context = context;
  }

  @Override
  public String describe() {
    return "source " + source.name() + " (ends after " + quiet + " without a message)";
  }

  @Override
  public Reader open(long position) {
    FlowContext on = context;
    if (on == null) {
      throw new IllegalStateException("a source input is opened by a batch run, which binds it");
    }
    SourceReader reader = new SourceReader(on, position);
    try {
      source.start(reader);
    } catch (Exception e) {
      reader.close();
      throw new BatchInputException(
          "The batch input " + describe() + " could not start: " + e.getMessage(), e);
    }
    return reader;
  }

  /** A message handed over, completed once its block is stored. */
  private record Pending(Message message, CompletableFuture<Message> done) {}

  private final class SourceReader implements Reader, SourceContext {

    private final FlowContext context;
    private final BlockingQueue<Pending> handed = new ArrayBlockingQueue<>(HAND_OVER);

    /** Returned to the loader and not yet stored: the loader's thread alone. */
    private final List<Pending> returned = new ArrayList<>();

    private long position;
    private long lastRecordNanos = System.nanoTime();
    private volatile boolean closed;

    SourceReader(FlowContext context, long position) {
      this.context = context;
      this.position = position;
    }

    @Override
    public CompletableFuture<Message> submit(Message message) {
      Pending pending = new Pending(message, new CompletableFuture<>());
      try {
        while (!closed) {
          if (handed.offer(pending, LINGER.toNanos(), TimeUnit.NANOSECONDS)) {
            return afterClose(pending);
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return CompletableFuture.failedFuture(notTaken());
    }

    @Override
    public CompletableFuture<Message> offer(Message message) {
      Pending pending = new Pending(message, new CompletableFuture<>());
      if (closed || !handed.offer(pending)) {
        return CompletableFuture.failedFuture(
            new FlowBusyException(
                flowName(),
                "batch input",
                FlowBusyException.Reason.LOADER_FULL,
                "the loader has " + HAND_OVER));
      }
      return afterClose(pending);
    }

    /** A message handed over while the reader closed fails with the others not stored. */
    private CompletableFuture<Message> afterClose(Pending pending) {
      if (closed) {
        failWaiting();
      }
      return pending.done();
    }

    @Override
    public BatchRecord next() {
      Pending pending;
      try {
        pending = handed.poll(LINGER.toNanos(), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
      if (pending == null) {
        return null;
      }
      returned.add(pending);
      lastRecordNanos = System.nanoTime();
      position++;
      return BatchRecord.of(position, pending.message().payload());
    }

    @Override
    public boolean ended() {
      return closed
          || Thread.currentThread().isInterrupted()
          || System.nanoTime() - lastRecordNanos >= quiet.toNanos();
    }

    @Override
    public void stored() {
      returned.forEach(p -> p.done().complete(p.message()));
      returned.clear();
    }

    @Override
    public long position() {
      return position;
    }

    @Override
    public void close() {
      closed = true;
      try {
        source.stop();
      } finally {
        returned.forEach(p -> p.done().completeExceptionally(notTaken()));
        returned.clear();
        failWaiting();
      }
    }

    private void failWaiting() {
      for (Pending p = handed.poll(); p != null; p = handed.poll()) {
        p.done().completeExceptionally(notTaken());
      }
    }

    private IllegalStateException notTaken() {
      return new IllegalStateException(
          "The batch input " + flowName() + " stopped before the message was stored");
    }

    @Override
    public String flowName() {
      return context.flowName();
    }

    @Override
    public Clock clock() {
      return context.clock();
    }

    @Override
    public TimerService timer() {
      return context.timer();
    }

    @Override
    public MeterRegistry meterRegistry() {
      return context.meterRegistry();
    }

    @Override
    public VmQueues vmQueues() {
      return context.vmQueues();
    }

    @Override
    public Storage storage() {
      return context.storage();
    }

    @Override
    public StoredValues storedValues() {
      return context.storedValues();
    }

    @Override
    public CompletableFuture<Message> runDetached(List<Processor> chain, Message message) {
      return context.runDetached(chain, message);
    }
  }
}
