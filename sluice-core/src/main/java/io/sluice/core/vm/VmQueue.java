package io.sluice.core.vm;

import io.sluice.core.Message;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;

/**
 * One bounded in-memory queue. Each entry carries a message and, for request-reply, the future
 * its sender waits on. It keeps nothing across a restart (the persistent queue does).
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
  private final LinkedBlockingDeque<Entry> entries;

  VmQueue(String name, int capacity) {
    this.name = name;
    this.capacity = capacity;
    this.entries = new LinkedBlockingDeque<>(capacity);
  }

  /** The queue's name. */
  public String name() {
    return name;
  }

  /** The most entries it holds. */
  public int capacity() {
    return capacity;
  }

  /** Entries waiting. */
  public int size() {
    return entries.size();
  }

  /** Adds an entry, waiting up to {@code timeout} for room; false when there was none. */
  public boolean offer(Entry entry, Duration timeout) throws InterruptedException {
    return entries.offer(entry, timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Puts back an entry that was taken but not accepted, at the head: nothing is lost. */
  public void putBack(Entry entry) throws InterruptedException {
    entries.putFirst(entry);
  }

  /** Takes the next entry, waiting up to {@code timeout}; null when none came. */
  public Entry poll(Duration timeout) throws InterruptedException {
    return entries.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Moves up to {@code max} waiting entries into {@code into}, without waiting; returns how many. */
  public int drainTo(Collection<Entry> into, int max) {
    return entries.drainTo(into, max);
  }
}
