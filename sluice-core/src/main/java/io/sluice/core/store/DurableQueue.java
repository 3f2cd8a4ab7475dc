package io.sluice.core.store;

import io.sluice.core.transaction.Transaction;
import java.time.Duration;
import java.util.Collection;
import java.util.List;

/**
 * A named queue that keeps what it accepted: at-least-once delivery with a lock per taken message.
 *
 * <ul>
 *   <li>{@link #enqueue} returns once the message is committed; a failed enqueue leaves nothing
 *       visible.
 *   <li>{@link #take} locks up to {@code max} ready messages for this handle's owner for the
 *       queue's lock timeout, oldest first (FIFO per queue on one node).
 *   <li>{@link #ack} removes a message; {@link #nack} makes it ready again after a delay; {@link
 *       #release} hands it back at once without counting the delivery (the consumer was busy).
 *   <li>A message whose lock lapses (its consumer died) is delivered again. One taken {@link
 *       QueueOptions#maxDeliveries()} times and not acknowledged goes to the dead letters instead.
 *   <li>A store that keeps payloads as bytes dead-letters a message whose bytes cannot be read as
 *       soon as a take meets it, with the reason ({@link Delivery#deadReason()}), and returns the
 *       others: one bad record never fails a take.
 *   <li>Competing consumers, on this node or others sharing the database, never hold the same
 *       message at once.
 * </ul>
 *
 * Thread-safe.
 */
public interface DurableQueue extends AutoCloseable {

  /** The queue's name. */
  String name();

  /** Who this handle takes messages as (the lock owner). */
  String owner();

  /** Enqueues one message; returns its id once it is committed. */
  long enqueue(Object payload);

  /** Enqueues these messages in one commit, in order; returns their ids. */
  List<Long> enqueueAll(List<?> payloads);

  /**
   * Whether {@link #enqueue(Object, Transaction)} can write inside {@code transaction}: the queue's
   * store is in the database the transaction runs on (the same SQLite file, the same PostgreSQL
   * database), as their configurations tell. A store that cannot (the in-memory one) says false.
   */
  default boolean joins(Transaction transaction) {
    return false;
  }

  /**
   * Enqueues one message inside {@code transaction}: it is committed with what else the transaction
   * wrote (or rolled back with it), and the queue's consumers are woken after the commit. Returns
   * its id.
   *
   * @throws UnsupportedOperationException when the queue does not {@link #joins join} it
   */
  default long enqueue(Object payload, Transaction transaction) {
    throw new UnsupportedOperationException(
        "queue '"
            + name()
            + "' cannot enqueue inside a transaction of data source '"
            + transaction.resourceName()
            + "'");
  }

  /** Takes and locks up to {@code max} ready messages without waiting; empty when none is ready. */
  List<Delivery> take(int max);

  /**
   * Takes and locks up to {@code max} ready messages, waiting up to {@code wait} for the first;
   * empty when none came in time.
   */
  List<Delivery> take(int max, Duration wait) throws InterruptedException;

  /**
   * Acknowledges a delivery: the message is gone. False when this owner no longer held its lock (it
   * lapsed, and the message may be delivered again).
   */
  boolean ack(Delivery delivery);

  /** Acknowledges these deliveries in one commit; returns how many were still held. */
  int ackAll(Collection<Delivery> deliveries);

  /**
   * Gives a delivery back to be delivered again after {@code delay}; a message that reached the
   * queue's {@link QueueOptions#maxDeliveries()} goes to the dead letters. False when this owner no
   * longer held its lock.
   */
  boolean nack(Delivery delivery, Duration delay);

  /**
   * Puts a delivery among the dead letters at once, whatever its count, with {@code reason} (a
   * failure no retry can mend); {@link #deadLetters} gives the reason back. False when this owner
   * no longer held its lock.
   */
  boolean deadLetter(Delivery delivery, String reason);

  /**
   * Hands a delivery back at once without counting it (the consumer could not start on it). False
   * when this owner no longer held its lock.
   */
  boolean release(Delivery delivery);

  /** Messages in the queue, ready or locked, dead letters not included. */
  long size();

  /** Messages that went to the dead letters. */
  long deadLetterCount();

  /**
   * Up to {@code max} dead letters, oldest first (not locked, not removed); one whose bytes cannot
   * be read has a null payload and says why in {@link Delivery#deadReason()}.
   */
  List<Delivery> deadLetters(int max);

  /**
   * Puts the dead letter {@code id} back in the queue, ready now, its deliveries counted from zero
   * (an operator fixed what made it fail); false, changing nothing, when this queue has no dead
   * letter {@code id} (another operator requeued or dropped it meanwhile). Its consumers are woken.
   */
  boolean requeueDeadLetter(long id);

  /**
   * Deletes the dead letter {@code id} for good; false, changing nothing, when this queue has no
   * dead letter {@code id}.
   */
  boolean dropDeadLetter(long id);

  /**
   * Closes this handle; the messages stay in the storage. It does nothing to the locks the handle
   * holds: they lapse when their lock timeout ends, or are handed back when an embedded store is
   * opened again. Release or nack what you hold first to hand it back at once.
   */
  @Override
  default void close() {}
}
