package io.sluice.core.vm.queue;

import io.sluice.core.Message;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One bounded in-memory queue. Each entry carries a message and, for request-reply, the future its
 * sender waits on. It keeps nothing across a restart (the persistent queue does).
 *
 * <p>The capacity bounds what publishers add; an entry a listener took and hands back ({@link
 * #putBack}) always goes back at the head at once, even when publishers filled the queue in the
 * meantime. Otherwise a listener could block forever putting back into a queue that only it drains.
 */
public final class VmQueue {

  /**
   * An entry: the message, and the reply future of a request-reply sender (null when one-way).
   *
   * @param message what was sent
   * @param reply where the answer goes, or null
   */
  public record Entry(Message message, CompletableFuture<Message> reply) {}

  private final String name;
  private final int capacity;
  private final ArrayDeque<Entry> entries = new ArrayDeque<>();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();
  private final Condition notFull = lock.newCondition();
  private final LongAdder refused = new LongAdder();

  VmQueue(String name, int capacity) {
    this.name = name;
    this.capacity = capacity;
  }

  /** The queue's name. */
  public String name() {
    return name;
  }

  /** The most entries publishers may fill it with. */
  public int capacity() {
    return capacity;
  }

  /** Entries waiting (briefly above capacity after a put-back into a full queue). */
  public int size() {
    lock.lock();
    try {
      return entries.size();
    } finally {
      lock.unlock();
    }
  }

  /** Adds an entry at the tail, waiting up to {@code timeout} for room; false when none came. */
  public boolean offer(Entry entry, Duration timeout) throws InterruptedException {
    long remaining = timeout.toNanos();
    lock.lockInterruptibly();
    try {
      while (entries.size() >= capacity) {
        if (remaining <= 0) {
          refused.increment();
          return false;
        }
        remaining = notFull.awaitNanos(remaining);
      }
      entries.addLast(entry);
      notEmpty.signal();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** How many offers found no room in time, since the queue was created. */
  public long refusedCount() {
    return refused.sum();
  }

  /** Puts back, at the head and without waiting, an entry that was taken but not accepted. */
  public void putBack(Entry entry) {
    lock.lock();
    try {
      entries.addFirst(entry);
      notEmpty.signal();
    } finally {
      lock.unlock();
    }
  }

  /** Takes the next entry, waiting up to {@code timeout}; null when none came. */
  public Entry poll(Duration timeout) throws InterruptedException {
    long remaining = timeout.toNanos();
    lock.lockInterruptibly();
    try {
      while (entries.isEmpty()) {
        if (remaining <= 0) {
          return null;
        }
        remaining = notEmpty.awaitNanos(remaining);
      }
      Entry entry = entries.pollFirst();
      if (entries.size() < capacity) {
        notFull.signal();
      }
      return entry;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Moves up to {@code max} waiting entries into {@code into}, without waiting; returns how many.
   */
  public int drainTo(Collection<Entry> into, int max) {
    lock.lock();
    try {
      int moved = 0;
      while (moved < max && !entries.isEmpty()) {
        into.add(entries.pollFirst());
        moved++;
      }
      if (moved > 0 && entries.size() < capacity) {
        notFull.signalAll();
      }
      return moved;
    } finally {
      lock.unlock();
    }
  }
}
