package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Delivery;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.vm.DurableQueueListener;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.example.notallowed.Gadget;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * A message whose stored bytes cannot be read (a flipped byte, a truncated value, a class outside
 * the allow-list) goes to the dead letters as soon as a take meets it, with the reason, warned
 * about and counted once; every other message is delivered and the listener keeps taking. With each
 * serializer. Extended once per JDBC storage; the bytes are spoiled in the table with SQL.
 */
abstract class PoisonMessagesContract {

  private static final Duration PATIENCE = Duration.ofSeconds(20);

  private JdbcStorage storage;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final Logger warnings = (Logger) LoggerFactory.getLogger(UnreadableMessages.class);
  private final ListAppender<ILoggingEvent> warned = new ListAppender<>();

  /** A new, empty storage writing with {@code values}. */
  protected abstract JdbcStorage open(StoredValues values, MeterRegistry registry) throws Exception;

  @AfterEach
  void close() {
    warnings.detachAppender(warned);
    if (storage != null) {
      storage.close();
    }
  }

  private DurableQueue queue(String serializer) throws Exception {
    warned.start();
    warnings.addAppender(warned);
    storage = open(TestStorages.values(serializer), registry);
    return storage.queue("orders", QueueOptions.DEFAULTS);
  }

  @ParameterizedTest
  @ValueSource(strings = {"jdk", "kryo", "fory"})
  void poisonMessagesAreDeadLetteredAtOnceAndEveryOtherMessageFlows(String serializer)
      throws Exception {
    DurableQueue queue = queue(serializer);
    List<Long> ids =
        queue.enqueueAll(
            List.of("good-1", "flipped", "good-2", "truncated", "good-3", "gadget", "good-4"));
    long flipped = ids.get(1);
    long truncated = ids.get(3);
    long gadget = ids.get(5);
    flipLastByte(flipped);
    truncate(truncated);
    replace(gadget, gadgetRecord(serializer));

    List<Object> delivered = new CopyOnWriteArrayList<>();
    DurableQueueListener listener =
        new DurableQueueListener(
            queue,
            "poison-" + serializer,
            1,
            16,
            Duration.ZERO,
            delivery -> {
              delivered.add(delivery.payload());
              return CompletableFuture.completedFuture(null);
            },
            registry);
    listener.start();
    try {
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> assertThat(delivered).containsExactly("good-1", "good-2", "good-3", "good-4"));

      List<Delivery> dead = queue.deadLetters(10);
      assertThat(dead).extracting(Delivery::id).containsExactly(flipped, truncated, gadget);
      assertThat(dead).extracting(Delivery::payload).containsOnlyNulls();
      assertThat(dead.get(0).deadReason()).startsWith("checksum mismatch: ");
      assertThat(dead.get(1).deadReason()).startsWith("truncated: ");
      assertThat(dead.get(2).deadReason())
          .startsWith("class not allowed: ")
          .contains(Gadget.class.getName());
      assertThat(queue.deadLetterCount()).isEqualTo(3);
      assertThat(poisonCount()).isEqualTo(3.0);
      assertThat(warned.list)
          .filteredOn(e -> e.getLevel() == Level.WARN)
          .extracting(ILoggingEvent::getFormattedMessage)
          .satisfiesExactly(
              w -> assertThat(w).contains("Message " + flipped, "'orders'", "checksum mismatch"),
              w -> assertThat(w).contains("Message " + truncated, "'orders'", "truncated"),
              w -> assertThat(w).contains("Message " + gadget, "'orders'", "class not allowed"));

      queue.enqueue("good-5");
      await()
          .atMost(PATIENCE)
          .untilAsserted(() -> assertThat(delivered).endsWith("good-4", "good-5"));
      await().atMost(PATIENCE).until(() -> queue.size() == 0);
      assertThat(poisonCount()).as("good messages are not counted").isEqualTo(3.0);
    } finally {
      listener.stop();
    }
  }

  /** A take returns the readable messages and leaves nothing locked behind. */
  @Test
  void aTakeReturnsTheReadableMessagesAndNothingStaysLocked() throws Exception {
    DurableQueue queue = queue("fory");
    List<Long> ids = queue.enqueueAll(List.of("a", "b", "c"));
    truncate(ids.get(1));

    List<Delivery> taken = queue.take(10);

    assertThat(taken).extracting(Delivery::payload).containsExactly("a", "c");
    assertThat(queue.deadLetterCount()).isEqualTo(1);
    assertThat(queue.size()).as("the two taken, the poison one not").isEqualTo(2);
    assertThat(queue.ackAll(taken)).isEqualTo(2);
    assertThat(queue.take(10)).isEmpty();
    assertThat(queue.deadLetters(10))
        .singleElement()
        .satisfies(d -> assertThat(d.id()).isEqualTo(ids.get(1)))
        .satisfies(d -> assertThat(d.deliveryCount()).isEqualTo(1));
    assertThat(poisonCount()).isEqualTo(1.0);
  }

  /** A take that met only unreadable messages takes again at once: good ones wait behind them. */
  @Test
  void aTakeOfOnlyUnreadableMessagesTakesTheReadyOnesBehindThem() throws Exception {
    DurableQueue queue = queue("kryo");
    List<Long> ids = queue.enqueueAll(List.of("bad-1", "bad-2", "bad-3", "good"));
    for (long id : ids.subList(0, 3)) {
      flipLastByte(id);
    }

    assertThat(queue.take(2)).extracting(Delivery::payload).containsExactly("good");
    assertThat(queue.deadLetterCount()).isEqualTo(3);
    assertThat(poisonCount()).isEqualTo(3.0);
  }

  /**
   * Listing dead letters does not fail on one whose bytes went bad after it died: it is listed
   * without a payload, the reason read now.
   */
  @Test
  void deadLettersListOneWhoseBytesCannotBeReadWithoutFailing() throws Exception {
    queue("jdk");
    DurableQueue queue = storage.queue("once", QueueOptions.DEFAULTS.withMaxDeliveries(1));
    List<Long> ids = queue.enqueueAll(List.of("first", "second"));
    for (Delivery delivery : queue.take(10)) {
      queue.nack(delivery, Duration.ZERO);
    }
    flipLastByte(ids.get(0));

    List<Delivery> dead = queue.deadLetters(10);

    assertThat(dead).extracting(Delivery::payload).containsExactly(null, "second");
    assertThat(dead.get(0).deadReason()).startsWith("checksum mismatch: ");
    assertThat(dead.get(1).deadReason()).isNull();
  }

  /**
   * A message whose payload row is gone (deleted by hand, a restore that missed a table) is
   * dead-lettered at the first take with the reason, not left locked to lapse until maxDeliveries.
   */
  @Test
  void aMessageWhosePayloadRowIsGoneIsDeadLetteredAtOnceWithTheReason() throws Exception {
    DurableQueue queue = queue("fory");
    List<Long> ids = queue.enqueueAll(List.of("a", "gone", "c"));
    update("DELETE FROM sluice_queue_payload WHERE id = ?", ids.get(1), null);

    List<Delivery> taken = queue.take(10);

    assertThat(taken).extracting(Delivery::payload).containsExactly("a", "c");
    assertThat(queue.deadLetters(10))
        .singleElement()
        .satisfies(d -> assertThat(d.id()).isEqualTo(ids.get(1)))
        .satisfies(d -> assertThat(d.payload()).isNull())
        .satisfies(d -> assertThat(d.deadReason()).startsWith("missing: message " + ids.get(1)));
    assertThat(poisonCount()).isEqualTo(1.0);
    assertThat(warned.list)
        .singleElement()
        .satisfies(w -> assertThat(w.getFormattedMessage()).contains("orders", "missing"));
  }

  private double poisonCount() {
    var counter = registry.find("sluice.queue.poison").tag("queue", "orders").counter();
    return counter == null ? 0 : counter.count();
  }

  /** A record of a class outside the default allow-list, as a permissive writer made it. */
  private static byte[] gadgetRecord(String serializer) {
    return StoredValues.create(
            SerializationConfig.builder().serializer(serializer).allow("org.example.*").build())
        .write(new Gadget());
  }

  private byte[] payload(long id) {
    return storage.write(
        "read a payload",
        tx -> {
          PreparedStatement select =
              tx.prepare("SELECT payload FROM sluice_queue_payload WHERE id = ?");
          select.setLong(1, id);
          try (ResultSet rs = select.executeQuery()) {
            assertThat(rs.next()).as("message %d has a payload", id).isTrue();
            return rs.getBytes(1);
          }
        });
  }

  private void flipLastByte(long id) {
    byte[] bytes = payload(id);
    bytes[bytes.length - 1] ^= 0x5A;
    replace(id, bytes);
  }

  private void truncate(long id) {
    update(
        "UPDATE sluice_queue_payload SET payload = substr(payload, 1, length(payload) - 3)"
            + " WHERE id = ?",
        id,
        null);
  }

  private void replace(long id, byte[] bytes) {
    update("UPDATE sluice_queue_payload SET payload = ? WHERE id = ?", id, bytes);
  }

  private void update(String sql, long id, byte[] bytes) {
    int changed =
        storage.write(
            "spoil a payload",
            tx -> {
              PreparedStatement update = tx.prepare(sql);
              if (bytes == null) {
                update.setLong(1, id);
              } else {
                update.setBytes(1, bytes);
                update.setLong(2, id);
              }
              return update.executeUpdate();
            });
    assertThat(changed).isEqualTo(1);
  }
}
