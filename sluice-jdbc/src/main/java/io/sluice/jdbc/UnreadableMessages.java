package io.sluice.jdbc;

import io.micrometer.core.instrument.Counter;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.serialization.spi.SerializationException;
import io.sluice.core.store.Delivery;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The messages of one queue whose stored bytes cannot be read (a checksum mismatch, a truncated
 * value, a class outside the allow-list, an unknown serializer): the take that meets one
 * dead-letters it at once, with the reason in {@code sluice_queue_dead}, instead of failing and
 * holding back the messages taken with it. Each is told by one WARN naming the queue, the id and
 * the reason, and counted by {@code sluice.queue.poison}; its payload stays stored as it was.
 */
final class UnreadableMessages {

  private static final Logger LOG = LoggerFactory.getLogger(UnreadableMessages.class);

  /** Fenced by the lock the take just wrote: a message taken again since stays where it is. */
  private static final String BURY =
      "UPDATE sluice_queue SET dead = 1, lock_owner = NULL, lock_expires = NULL"
          + " WHERE id = ? AND lock_owner = ? AND lock_expires = ? AND deliveries = ?";

  /** A taken message that could not be read, and why. */
  record Unreadable(long id, int deliveries, SerializationException error) {}

  private final JdbcStorage storage;
  private final String queue;
  private final String owner;
  private final Counter poison;

  UnreadableMessages(JdbcStorage storage, String queue, String owner) {
    this.storage = storage;
    this.queue = queue;
    this.owner = owner;
    this.poison =
        Counter.builder("sluice.queue.poison")
            .tag("queue", queue)
            .description(
                "Messages dead-lettered as soon as they were taken: their stored bytes could not"
                    + " be read")
            .register(storage.registry());
  }

  /**
   * Dead-letters {@code found}, taken with the lock expiring at {@code lockExpires}, in one commit.
   * When that write fails they stay locked, and are taken again (and met again) when the lock
   * lapses.
   */
  void deadLetter(List<Unreadable> found, long lockExpires) {
    List<Unreadable> buried;
    try {
      buried =
          storage.write(
              "dead-letter " + found.size() + " unreadable message(s) of queue '" + queue + "'",
              tx -> {
                PreparedStatement bury = tx.prepare(BURY);
                PreparedStatement reason = tx.prepare(JdbcDurableQueue.DEAD_REASON);
                List<Unreadable> done = new ArrayList<>(found.size());
                for (Unreadable message : found) {
                  JdbcStorage.bind(bury, message.id(), owner, lockExpires, message.deliveries());
                  if (bury.executeUpdate() == 1) {
                    JdbcStorage.bind(reason, message.id(), message.error().reason());
                    reason.executeUpdate();
                    done.add(message);
                  }
                }
                return done;
              });
    } catch (RuntimeException e) {
      LOG.warn(
          "Could not dead-letter {} unreadable message(s) of queue '{}' ({}); they are taken again"
              + " when their locks lapse",
          found.size(),
          queue,
          e.toString());
      return;
    }
    for (Unreadable message : buried) {
      poison.increment();
      LOG.warn(
          "Message {} of queue '{}' cannot be read ({}), so it went to the dead letters at once: {}",
          message.id(),
          queue,
          message.error().fault().label(),
          message.error().getMessage());
    }
  }

  /**
   * A dead letter as {@link io.sluice.core.store.DurableQueue#deadLetters} lists it: its payload,
   * or null with the reason when its bytes cannot be read (the stored reason, else the error now).
   */
  static Delivery deadLetter(
      StoredValues values, long id, byte[] payload, int deliveries, String reason) {
    if (payload == null) {
      return new Delivery(
          id, null, deliveries, null, null, reason != null ? reason : "missing: no stored payload");
    }
    try {
      return new Delivery(id, values.read(payload), deliveries, null, null, reason);
    } catch (SerializationException e) {
      return new Delivery(id, null, deliveries, null, null, reason != null ? reason : e.reason());
    }
  }
}
