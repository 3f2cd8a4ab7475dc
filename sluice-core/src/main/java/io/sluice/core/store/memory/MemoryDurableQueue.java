package io.sluice.core.store.memory;

import io.sluice.core.store.Delivery;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.Require;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * A handle on a durable queue kept in memory (durable only while the process lives). The messages
 * live in {@link Messages}, shared by every handle of the queue's name; each handle takes as its
 * own owner and applies its own options.
 *
 * <p>Every operation scans the queue's messages under one lock: simple and fast enough for the
 * tests and single-process runs this storage is for.
 */
final class MemoryDurableQueue implements DurableQueue {

  /** The messages under one queue name. */
  static final class Messages {
    private final ReentrantLock lock = new ReentrantLock();

    /** Signalled when a message may have become ready (enqueued, released, nacked) or on close. */
    private final Condition changed = lock.newCondition();

    /** Ready, delayed and locked messages by id: id order is FIFO order. */
    private final TreeMap<Long, Held> live = new TreeMap<>();

    private final TreeMap<Long, Held> dead = new TreeMap<>();
    private long lastId;

    /** Wakes every waiting taker, so that it sees the storage closed. */
    void wakeAll() {
      lock.lock();
      try {
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  /** A message and its delivery state; guarded by its queue's lock. */
  private static final class Held {
    final long id;
    final Object payload;
    int deliveryCount;
    String lockOwner;
    Instant lockExpiry;
    Instant readyAt;
    String deadReason;

    Held(long id, Object payload) {
      this.id = id;
      this.payload = payload;
    }

    boolean readyAt(Instant now) {
      return lockOwner == null && (readyAt == null || !now.isBefore(readyAt));
    }

    /** When this message may become ready without anyone acting: its lock lapses or delay ends. */
    Instant changesAt() {
      return lockOwner != null ? lockExpiry : readyAt;
    }

    void unlock() {
      lockOwner = null;
      lockExpiry = null;
    }

    Delivery delivery() {
      return new Delivery(id, payload, deliveryCount, lockOwner, lockExpiry, deadReason);
    }
  }

  private final String name;
  private final QueueOptions options;
  private final String owner;
  private final Messages messages;
  private final MemoryStorage storage;

  MemoryDurableQueue(String name, QueueOptions options, Messages messages, MemoryStorage storage) {
    this.name = name;
    this.options = options;
    this.owner = options.ownerOrMadeUp();
    this.messages = messages;
    this.storage = storage;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String owner() {
    return owner;
  }

  @Override
  public long enqueue(Object payload) {
    return enqueueAll(List.of(Require.nonNull(payload, "payload"))).getFirst();
  }

  @Override
  public List<Long> enqueueAll(List<?> payloads) {
    Require.payloads(payloads);
    return underLock(
        now -> {
          List<Long> ids = new ArrayList<>(payloads.size());
          for (Object payload : payloads) {
            long id = ++messages.lastId;
            messages.live.put(id, new Held(id, payload));
            ids.add(id);
          }
          messages.changed.signalAll();
          return List.copyOf(ids);
        });
  }

  @Override
  public List<Delivery> take(int max) {
    Require.atLeastOne(max);
    return underLock(now -> takeReady(max, now));
  }

  @Override
  public List<Delivery> take(int max, Duration wait) throws InterruptedException {
    Require.atLeastOne(max);
    long waitNanos = TimeUnit.NANOSECONDS.convert(Require.notNegative(wait, "wait"));
    long start = System.nanoTime();
    storage.checkOpen();
    messages.lock.lockInterruptibly();
    try {
      while (true) {
        storage.checkOpen();
        Instant now = storage.clock().instant();
        List<Delivery> taken = takeReady(max, now);
        long left = waitNanos - (System.nanoTime() - start);
        if (!taken.isEmpty() || left <= 0) {
          return taken;
        }
        // Nobody signals when the clock makes a message ready: look again then at the latest.
        Instant next = nextChange();
        if (next != null) {
          left = Math.min(left, TimeUnit.NANOSECONDS.convert(Duration.between(now, next)));
        }
        messages.changed.await(left, TimeUnit.NANOSECONDS);
      }
    } finally {
      messages.lock.unlock();
    }
  }

  @Override
  public boolean ack(Delivery delivery) {
    return ackAll(List.of(Require.nonNull(delivery, "delivery"))) == 1;
  }

  @Override
  public int ackAll(Collection<Delivery> deliveries) {
    Require.nonNull(deliveries, "deliveries");
    deliveries.forEach(delivery -> Require.nonNull(delivery, "delivery"));
    return underLock(
        now -> {
          int acked = 0;
          for (Delivery delivery : deliveries) {
            if (held(delivery, now) != null) {
              messages.live.remove(delivery.id());
              acked++;
            }
          }
          return acked;
        });
  }

  @Override
  public boolean nack(Delivery delivery, Duration delay) {
    Require.nonNull(delivery, "delivery");
    Require.notNegative(delay, "delay");
    return underLock(
        now -> {
          Held held = held(delivery, now);
          if (held == null) {
            return false;
          }
          if (held.deliveryCount >= options.maxDeliveries()) {
            messages.live.remove(held.id);
            bury(held);
          } else {
            held.unlock();
            held.readyAt = delay.isZero() ? null : now.plus(delay);
            messages.changed.signalAll();
          }
          return true;
        });
  }

  @Override
  public boolean deadLetter(Delivery delivery, String reason) {
    Require.nonNull(delivery, "delivery");
    return underLock(
        now -> {
          Held held = held(delivery, now);
          if (held == null) {
            return false;
          }
          messages.live.remove(held.id);
          held.deadReason = reason;
          bury(held);
          return true;
        });
  }

  @Override
  public boolean release(Delivery delivery) {
    Require.nonNull(delivery, "delivery");
    return underLock(
        now -> {
          Held held = held(delivery, now);
          if (held == null) {
            return false;
          }
          held.deliveryCount--;
          held.unlock();
          messages.changed.signalAll();
          return true;
        });
  }

  @Override
  public long size() {
    return underLock(
        now -> {
          lapseLocks(now);
          return messages.live.size();
        });
  }

  @Override
  public long deadLetterCount() {
    return underLock(
        now -> {
          lapseLocks(now);
          return messages.dead.size();
        });
  }

  @Override
  public List<Delivery> deadLetters(int max) {
    Require.atLeastOne(max);
    return underLock(
        now -> {
          lapseLocks(now);
          return messages.dead.values().stream().limit(max).map(Held::delivery).toList();
        });
  }

  @Override
  public boolean requeueDeadLetter(long id) {
    return underLock(
        now -> {
          lapseLocks(now);
          Held held = messages.dead.remove(id);
          if (held == null) {
            return false;
          }
          held.deliveryCount = 0;
          held.deadReason = null;
          held.readyAt = null;
          held.unlock();
          messages.live.put(held.id, held);
          messages.changed.signalAll();
          return true;
        });
  }

  @Override
  public boolean dropDeadLetter(long id) {
    return underLock(
        now -> {
          lapseLocks(now);
          return messages.dead.remove(id) != null;
        });
  }

  @Override
  public String toString() {
    return "memory queue '" + name + "' of " + owner + " " + options;
  }

  /** Runs {@code action} holding the queue's lock, at the clock's current time. */
  private <T> T underLock(Function<Instant, T> action) {
    storage.checkOpen();
    messages.lock.lock();
    try {
      return action.apply(storage.clock().instant());
    } finally {
      messages.lock.unlock();
    }
  }

  private List<Delivery> takeReady(int max, Instant now) {
    lapseLocks(now);
    List<Delivery> taken = new ArrayList<>();
    for (Iterator<Held> it = messages.live.values().iterator();
        it.hasNext() && taken.size() < max; ) {
      Held held = it.next();
      if (held.readyAt(now)) {
        held.deliveryCount++;
        held.lockOwner = owner;
        held.lockExpiry = now.plus(options.lockTimeout());
        held.readyAt = null;
        taken.add(held.delivery());
      }
    }
    return taken;
  }

  /** Frees lapsed locks; a message already taken as often as allowed goes to the dead letters. */
  private void lapseLocks(Instant now) {
    for (Iterator<Held> it = messages.live.values().iterator(); it.hasNext(); ) {
      Held held = it.next();
      if (held.lockOwner != null && !now.isBefore(held.lockExpiry)) {
        if (held.deliveryCount >= options.maxDeliveries()) {
          it.remove();
          bury(held);
        } else {
          held.unlock();
        }
      }
    }
  }

  /** Puts a message, already out of the live ones, among the dead letters. */
  private void bury(Held held) {
    held.unlock();
    messages.dead.put(held.id, held);
  }

  /** The earliest time a message becomes ready by the clock alone, or null. */
  private Instant nextChange() {
    Instant next = null;
    for (Held held : messages.live.values()) {
      Instant at = held.changesAt();
      if (at != null && (next == null || at.isBefore(next))) {
        next = at;
      }
    }
    return next;
  }

  /**
   * The message {@code delivery} took, when this handle's owner still holds it by that very
   * delivery: the lock is the same (owner, count and expiry) and has not lapsed; otherwise null.
   */
  private Held held(Delivery delivery, Instant now) {
    Held held = messages.live.get(delivery.id());
    boolean same =
        held != null
            && owner.equals(held.lockOwner)
            && owner.equals(delivery.lockOwner())
            && held.deliveryCount == delivery.deliveryCount()
            && held.lockExpiry.equals(delivery.lockExpiry())
            && now.isBefore(held.lockExpiry);
    return same ? held : null;
  }
}
