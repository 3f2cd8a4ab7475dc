package io.sluice.db;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.StorageConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What a flow fed by a db-poll received: every message in the order it ran (failed deliveries
 * included), run by a CPU_LITE processor on the thread that hands it over, so in hand-over order. A
 * test gives the ids (the {@code id} column) it wants to fail.
 */
final class Polled {

  /** One delivery: the message's id column, its watermark attribute, and whether it failed. */
  record Delivery(long id, Object watermark, Object pollWatermark, boolean failed) {}

  private final List<Delivery> deliveries = new ArrayList<>();
  private final Predicate<Long> fails;
  private final Function<Long, RuntimeException> error;
  private DbPollSource source;

  Polled(Predicate<Long> fails) {
    this(fails, id -> new IllegalStateException("row " + id + " fails, as the test asked"));
  }

  /** As {@link #Polled(Predicate)}, failing with the error {@code error} makes. */
  Polled(Predicate<Long> fails, Function<Long, RuntimeException> error) {
    this.fails = fails;
    this.error = error;
  }

  Polled() {
    this(id -> false);
  }

  /**
   * A poll of {@code table}'s id and sku after the watermark, in id order, every 20 ms, from 0, on
   * the data source {@code db}.
   */
  static DbPollConfig.Builder byId(String table) {
    return DbPollConfig.builder(
            "db", "SELECT id, sku FROM " + table + " WHERE id > :watermark ORDER BY id")
        .frequency(Duration.ofMillis(20))
        .watermarkColumn("id")
        .initialWatermark(0);
  }

  /**
   * A poll of {@code table}'s id and created after the watermark, in created order, every 50 ms,
   * from {@code initial}, on the data source {@code db}.
   */
  static DbPollConfig.Builder byCreated(String table, Object initial) {
    return DbPollConfig.builder(
            "db",
            "SELECT id, created FROM " + table + " WHERE created > :watermark ORDER BY created")
        .frequency(Duration.ofMillis(50))
        .watermarkColumn("created")
        .initialWatermark(initial);
  }

  /**
   * A flow named {@code name} polled by {@code source}, recording into this, then running {@code
   * after}.
   */
  Flow flow(String name, DbPollSource polling, Processor... after) {
    this.source = polling;
    Processor record =
        Processor.of(
            ProcessingType.CPU_LITE,
            message -> {
              for (long id : ids(message)) {
                boolean failing = fails.test(id);
                synchronized (deliveries) {
                  deliveries.add(
                      new Delivery(
                          id, message.attribute("watermark"), source.watermark(), failing));
                }
                if (failing) {
                  throw error.apply(id);
                }
              }
              return message;
            });
    Flow.Builder flow = Flow.builder(name).source(polling).processor(record);
    for (Processor processor : after) {
      flow.processor(processor);
    }
    return flow.build();
  }

  /** An application of the flow with its store as {@code storage} says. */
  Application application(String name, DbPollSource polling, StorageConfig storage) {
    return Application.builder().storage(storage).flow(flow(name, polling)).build();
  }

  private static List<Long> ids(Message message) {
    if (message.payload() instanceof Map<?, ?> row) {
      return List.of(((Number) row.get("id")).longValue());
    }
    List<Long> ids = new ArrayList<>();
    for (Object row : (List<?>) message.payload()) {
      ids.add(((Number) ((Map<?, ?>) row).get("id")).longValue());
    }
    return ids;
  }

  List<Delivery> deliveries() {
    synchronized (deliveries) {
      return List.copyOf(deliveries);
    }
  }

  /** The ids whose message completed, in order. */
  List<Long> completed() {
    return deliveries().stream().filter(d -> !d.failed()).map(Delivery::id).toList();
  }

  /** Every id delivered, failed deliveries included, in order. */
  List<Long> delivered() {
    return deliveries().stream().map(Delivery::id).toList();
  }

  /** The ids from {@code from} to {@code to}, both included. */
  static List<Long> ids(long from, long to) {
    List<Long> ids = new ArrayList<>();
    for (long id = from; id <= to; id++) {
      ids.add(id);
    }
    return ids;
  }

  /** How many polls the flow's db-poll ran. */
  static double polls(MeterRegistry registry, String flow) {
    return registry.get("sluice.db.poll.polls").tag("flow", flow).counter().count();
  }

  /** Inserts rows named {@code prefix}1..{@code count} into {@code table} (sku column). */
  static void insert(TestDb db, String table, String prefix, int count) throws Exception {
    StringBuilder sql = new StringBuilder("INSERT INTO " + table + " (sku) VALUES ");
    for (int i = 1; i <= count; i++) {
      sql.append(i == 1 ? "" : ", ").append("('").append(prefix).append(i).append("')");
    }
    db.execute(sql.toString());
  }
}
