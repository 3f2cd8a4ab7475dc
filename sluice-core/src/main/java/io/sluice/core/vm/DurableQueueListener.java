package io.sluice.core.vm;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.Backoff;
import io.sluice.core.FlowBusyException;
import io.sluice.core.health.HealthCheck;
import io.sluice.core.logging.RepeatedFailureLog;
import io.sluice.core.store.Delivery;
import io.sluice.core.store.DurableQueue;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the messages of a {@link DurableQueue} to a handler (a flow), at least once: consumer
 * threads take batches, the handler's future says how each ended, and the outcome goes back to the
 * queue. A message that ended well is acknowledged; one the handler refused because it was busy
 * ({@link FlowBusyException}) is released, not counted, and taken again after a short pause; one
 * that failed is given back after the redelivery delay, and after the queue's most deliveries it
 * goes to the dead letters.
 *
 * <p>The listener never stops taking by itself: a take that fails is warned about, counted ({@code
 * sluice.queue.take.failures}) and made again after a growing pause (100 ms to 5 s); a message
 * whose stored bytes cannot be read never reaches it (the queue dead-letters it, see {@link
 * DurableQueue}).
 *
 * <p>Outcomes are written in batches by the consumer threads between takes (one commit for many
 * acknowledgements), and at once after {@link #stop()}. At most {@code maxOutstanding} messages are
 * held at a time, so locks are not taken much ahead of the work. Messages this process held when it
 * died are delivered again when their locks lapse.
 */
public final class DurableQueueListener {

  private static final Logger LOG = LoggerFactory.getLogger(DurableQueueListener.class);
  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration BUSY_PAUSE = Duration.ofMillis(10);
  private static final Backoff RETRY =
      Backoff.doubling(Duration.ofMillis(100), Duration.ofSeconds(5));

  private final DurableQueue queue;
  private final String threadName;
  private final int consumers;
  private final int batch;
  private final int maxOutstanding;
  private final Function<Delivery, Duration> redeliveryDelay;
  private final Function<Delivery, CompletableFuture<?>> handler;
  private final Counter acked;
  private final Counter nacked;
  private final Counter buried;
  private final Counter released;
  private final Counter takeFailures;
  private final ConcurrentLinkedQueue<Delivery> toAck = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<Delivery> toRelease = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<Delivery> toNack = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<Map.Entry<Delivery, String>> toBury =
      new ConcurrentLinkedQueue<>();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition room = lock.newCondition();
  private final List<Thread> threads = new ArrayList<>();
  private final RepeatedFailureLog outcomeFailures;
  private int outstanding;
  private volatile boolean running;

  /** Why the last take failed, while no take has succeeded since; null when the last one did. */
  private volatile String lastTakeFailure;

  /**
   * A listener on {@code queue}.
   *
   * @param queue where the messages are
   * @param threadName the consumer threads' name prefix
   * @param consumers how many threads take (1 keeps FIFO order into the handler)
   * @param maxOutstanding the most messages handed over and not yet ended
   * @param redeliveryDelay how long a failed message waits before it is delivered again
   * @param handler starts a message's work; its future ends when the work does
   * @param registry where the queue's depth, dead letters and outcomes are published
   */
  public DurableQueueListener(
      DurableQueue queue,
      String threadName,
      int consumers,
      int maxOutstanding,
      Duration redeliveryDelay,
      Function<Delivery, CompletableFuture<?>> handler,
      MeterRegistry registry) {
    this(queue, threadName, consumers, maxOutstanding, checked(redeliveryDelay), handler, registry);
  }

  private static Function<Delivery, Duration> checked(Duration redeliveryDelay) {
    if (redeliveryDelay == null || redeliveryDelay.isNegative()) {
      throw new IllegalArgumentException(
          "redeliveryDelay must be zero or positive, was " + redeliveryDelay);
    }
    return delivery -> redeliveryDelay;
  }

  /**
   * A listener on {@code queue} whose failed messages wait {@code redeliveryDelay} of their
   * delivery before they are delivered again (a backoff by {@link Delivery#deliveryCount()}); a
   * handler failing with a {@link DeadLetterException} sends its message to the dead letters at
   * once.
   *
   * @param queue where the messages are
   * @param threadName the consumer threads' name prefix
   * @param consumers how many threads take (1 keeps FIFO order into the handler)
   * @param maxOutstanding the most messages handed over and not yet ended
   * @param redeliveryDelay how long a message that failed waits before it is delivered again
   * @param handler starts a message's work; its future ends when the work does
   * @param registry where the queue's depth, dead letters and outcomes are published
   */
  public DurableQueueListener(
      DurableQueue queue,
      String threadName,
      int consumers,
      int maxOutstanding,
      Function<Delivery, Duration> redeliveryDelay,
      Function<Delivery, CompletableFuture<?>> handler,
      MeterRegistry registry) {
    if (consumers < 1) {
      throw new IllegalArgumentException("consumers must be at least 1, was " + consumers);
    }
    if (maxOutstanding < consumers) {
      throw new IllegalArgumentException(
          "maxOutstanding must be at least consumers (" + consumers + "), was " + maxOutstanding);
    }
    this.queue = Objects.requireNonNull(queue, "queue");
    this.threadName = threadName;
    this.consumers = consumers;
    this.maxOutstanding = maxOutstanding;
    this.batch = Math.max(1, Math.min(256, maxOutstanding / consumers));
    this.redeliveryDelay = Objects.requireNonNull(redeliveryDelay, "redeliveryDelay");
    this.handler = Objects.requireNonNull(handler, "handler");
    String name = queue.name();
    // Outcomes are written between takes, every few hundred milliseconds while the store is gone.
    this.outcomeFailures =
        new RepeatedFailureLog(
            LOG, "Writing the outcomes of queue '" + name + "'", Clock.systemUTC());
    this.acked = outcomes(registry, name, "acked");
    this.nacked = outcomes(registry, name, "nacked");
    this.released = outcomes(registry, name, "released");
    this.buried = outcomes(registry, name, "dead");
    this.takeFailures =
        Counter.builder("sluice.queue.take.failures")
            .tag("queue", name)
            .description("Takes of a listener that failed; it took again after a pause")
            .register(registry);
    Gauge.builder("sluice.queue.depth", queue, q -> q.size())
        .tag("queue", name)
        .description("Messages in the durable queue, ready or locked")
        .register(registry);
    Gauge.builder("sluice.queue.dead", queue, q -> q.deadLetterCount())
        .tag("queue", name)
        .description("Messages of the durable queue in its dead letters")
        .register(registry);
  }

  private static Counter outcomes(MeterRegistry registry, String queue, String outcome) {
    return Counter.builder("sluice.queue.outcomes")
        .tag("queue", queue)
        .tag("outcome", outcome)
        .description(
            "Messages a listener ended: acked (done), nacked (failed, delivered again or dead),"
                + " released (the flow was busy), dead (failed beyond any retry)")
        .register(registry);
  }

  /** Starts the consumer threads. */
  public synchronized void start() {
    if (running) {
      throw new IllegalStateException("the listener on '" + queue.name() + "' already runs");
    }
    running = true;
    for (int i = 0; i < consumers; i++) {
      threads.add(
          Thread.ofPlatform().daemon().name(threadName + "-" + (i + 1)).start(this::consume));
    }
  }

  /**
   * Stops taking. Messages taken and not yet handed over are released at once; those the handler
   * holds are acknowledged (or given back) as they end.
   */
  public synchronized void stop() {
    running = false;
    lock.lock();
    try {
      room.signalAll();
    } finally {
      lock.unlock();
    }
    // A consumer notices within one poll; one blocked handing a message over is interrupted (the
    // flow answers with a refusal) and what it holds goes back.
    ConsumerThreads.stop(threads, POLL.multipliedBy(2));
    flush();
  }

  /**
   * Whether its consumers take: running, every consumer thread alive, and the last take answered (a
   * store that fails every take leaves the queue unread).
   */
  public HealthCheck health() {
    String component = "queue " + queue.name();
    if (!running) {
      return HealthCheck.down(component, "its listener is stopped");
    }
    long alive;
    synchronized (this) {
      alive = threads.stream().filter(Thread::isAlive).count();
    }
    if (alive < consumers) {
      return HealthCheck.down(
          component, (consumers - alive) + " of its " + consumers + " consumer thread(s) ended");
    }
    String failure = lastTakeFailure;
    if (failure != null) {
      return HealthCheck.down(component, "its last take failed: " + failure);
    }
    return HealthCheck.up(
        component, consumers + " consumer(s) taking, " + outstanding() + " message(s) in flight");
  }

  /** The queue it takes from. */
  public DurableQueue queue() {
    return queue;
  }

  /** Messages handed over whose work has not ended. */
  public int outstanding() {
    lock.lock();
    try {
      return outstanding;
    } finally {
      lock.unlock();
    }
  }

  private void consume() {
    Backoff.Failures failures = RETRY.failures();
    while (running) {
      List<Delivery> taken = List.of();
      int handed = 0;
      try {
        int wanted = awaitRoom();
        // Outcomes first, then the take: a message the flow refused while this consumer waited for
        // room goes back before the next take, so one consumer keeps the queue's order.
        flush();
        if (wanted == 0) {
          continue;
        }
        taken = queue.take(wanted, POLL);
        boolean busy = false;
        while (handed < taken.size() && running && !busy) {
          busy = !hand(taken.get(handed));
          if (!busy) {
            handed++;
          }
        }
        releaseFrom(taken, handed);
        taken = List.of();
        failures.reset();
        lastTakeFailure = null;
        if (busy) {
          LockSupport.parkNanos(BUSY_PAUSE.toNanos());
        }
      } catch (InterruptedException e) {
        releaseFrom(taken, handed);
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        // A take that failed (the store erred in a way it does not retry itself) stops nothing:
        // every other message still has to flow. What was taken goes back; the next take waits.
        releaseFrom(taken, handed);
        takeFailures.increment();
        lastTakeFailure = e.toString();
        long pause = failures.next().toNanos();
        LOG.warn(
            "Listener on queue '{}' could not take messages ({}); it tries again in {} ms",
            queue.name(),
            e.toString(),
            pause / 1_000_000);
        LockSupport.parkNanos(pause);
      }
    }
  }

  /** Waits until fewer than maxOutstanding are held; returns how many may be taken (0: stopped). */
  private int awaitRoom() throws InterruptedException {
    lock.lockInterruptibly();
    try {
      while (running && outstanding >= maxOutstanding) {
        room.awaitNanos(POLL.toNanos());
      }
      return running ? Math.min(batch, maxOutstanding - outstanding) : 0;
    } finally {
      lock.unlock();
    }
  }

  /** Hands one delivery over; false when the handler refused it at once (busy). */
  private boolean hand(Delivery delivery) {
    CompletableFuture<?> result;
    try {
      result = handler.apply(delivery);
    } catch (RuntimeException e) {
      result = CompletableFuture.failedFuture(e);
    }
    if (result.isCompletedExceptionally()
        && unwrap(result.exceptionNow()) instanceof FlowBusyException) {
      return false;
    }
    changeOutstanding(1);
    result.whenComplete((ignored, error) -> ended(delivery, error));
    return true;
  }

  private void ended(Delivery delivery, Throwable error) {
    Throwable cause = unwrap(error);
    if (cause == null) {
      toAck.add(delivery);
    } else if (cause instanceof FlowBusyException) {
      toRelease.add(delivery);
    } else if (cause instanceof DeadLetterException dead) {
      toBury.add(Map.entry(delivery, dead.getMessage()));
    } else {
      toNack.add(delivery);
    }
    changeOutstanding(-1);
    if (!running) {
      flush();
    }
  }

  private void changeOutstanding(int delta) {
    lock.lock();
    try {
      outstanding += delta;
      if (delta < 0) {
        room.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Writes the outcomes gathered so far: acknowledgements in one commit. */
  private void flush() {
    List<Delivery> acks = drain(toAck);
    try {
      boolean allHeld = true;
      if (!acks.isEmpty()) {
        int held = queue.ackAll(acks);
        acked.increment(held);
        if (held < acks.size()) {
          allHeld = false;
          outcomeFailures.failed(
              "{} of {} messages of queue '{}' ended when this consumer no longer held them (their"
                  + " locks lapsed, or the store lost the connection); they may be delivered again",
              acks.size() - held,
              acks.size(),
              queue.name());
        }
      }
      // Each outcome on its own: one that fails (its lock lapses, it is delivered again) does not
      // keep the others from being written.
      for (Delivery delivery : drain(toRelease)) {
        allHeld &= write(delivery, "release", () -> queue.release(delivery), released);
      }
      for (Delivery delivery : drain(toNack)) {
        allHeld &=
            write(
                delivery,
                "nack",
                () -> queue.nack(delivery, redeliveryDelay.apply(delivery)),
                nacked);
      }
      for (Map.Entry<Delivery, String> dead : drain(toBury)) {
        allHeld &=
            write(
                dead.getKey(),
                "dead-letter",
                () -> queue.deadLetter(dead.getKey(), dead.getValue()),
                buried);
      }
      if (allHeld) {
        outcomeFailures.recovered();
      }
    } catch (RuntimeException e) {
      // The locks lapse and the messages are delivered again: at least once, never lost.
      outcomeFailures.failed(
          "Could not write outcomes to queue '{}' ({}); the messages will be delivered again",
          queue.name(),
          e.toString());
    }
  }

  /** Writes one outcome, counting it; false (logged) when the store refused it. */
  private boolean write(Delivery delivery, String what, Runnable outcome, Counter counter) {
    try {
      outcome.run();
      counter.increment();
      return true;
    } catch (RuntimeException e) {
      outcomeFailures.failed(
          "Could not {} message {} of queue '{}' ({}); its lock lapses and it is delivered again",
          what,
          delivery.id(),
          queue.name(),
          e.toString());
      return false;
    }
  }

  private void releaseFrom(List<Delivery> taken, int from) {
    for (int i = from; i < taken.size(); i++) {
      try {
        queue.release(taken.get(i));
      } catch (RuntimeException e) {
        outcomeFailures.failed(
            "Could not release a message of queue '{}': {}", queue.name(), e.toString());
        return;
      }
    }
  }

  private static <T> List<T> drain(ConcurrentLinkedQueue<T> from) {
    List<T> out = new ArrayList<>();
    for (T d = from.poll(); d != null; d = from.poll()) {
      out.add(d);
    }
    return out;
  }

  private static Throwable unwrap(Throwable error) {
    return error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error;
  }
}
