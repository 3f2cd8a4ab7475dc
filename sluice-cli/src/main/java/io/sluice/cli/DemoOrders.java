package io.sluice.cli;

import io.sluice.core.Message;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The batch demo's data and work: generated order lines ({@code
 * id,customer,quantity,unitPrice,currency}, a few malformed on purpose), their check and pricing,
 * and a sink that adds the prices up. Each is a processor's body ({@code Processor.of(CPU_LITE,
 * DemoOrders::check)}).
 */
final class DemoOrders {

  /** Every this many lines, one lacks its last two fields. */
  static final long SHORT_LINE_EVERY = 100_000;

  /** Every this many lines (but the short ones), one has no price. */
  static final long NO_PRICE_EVERY = 50_000;

  private static final String[] CURRENCIES = {"EUR", "USD", "GBP"};
  private static final Set<String> KNOWN = Set.of(CURRENCIES);
  private static final Map<String, Long> PER_MILLE_OF_EURO =
      Map.of("EUR", 1000L, "USD", 920L, "GBP", 1170L);

  /** What the sink received: groups, orders and euro cents. A real sink would write them keyed. */
  static final AtomicLong GROUPS = new AtomicLong();

  static final AtomicLong ORDERS = new AtomicLong();
  static final AtomicLong CENTS = new AtomicLong();

  private DemoOrders() {}

  /**
   * Order line {@code index + 1}; every {@link #SHORT_LINE_EVERY}th lacks its last two fields,
   * every {@link #NO_PRICE_EVERY}th has no price.
   */
  static String line(long index) {
    long id = index + 1;
    StringBuilder line = new StringBuilder(48);
    line.append(id).append(",customer-").append(id % 5000).append(',').append(1 + id % 20);
    if (id % SHORT_LINE_EVERY == 0) {
      return line.toString();
    }
    line.append(',');
    if (id % NO_PRICE_EVERY == 0) {
      line.append("n/a");
    } else {
      line.append(1 + id % 999).append('.').append(10 + id % 90);
    }
    return line.append(',').append(CURRENCIES[(int) (id % CURRENCIES.length)]).toString();
  }

  /**
   * Parses an order line into its amount in cents and currency; fails, saying why, when it does not
   * have five fields, a quantity from 1 to 999, a unit price with two decimals and a known
   * currency.
   */
  static Message check(Message message) {
    String[] fields = ((String) message.payload()).split(",", -1);
    if (fields.length != 5) {
      throw new IllegalArgumentException(
          "the line has "
              + fields.length
              + " field(s), not 5: id,customer,quantity,unitPrice,currency");
    }
    long quantity = number(fields[2], "quantity", 1, 999);
    String price = fields[3];
    int dot = price.indexOf('.');
    if (dot < 1 || dot != price.length() - 3) {
      throw new IllegalArgumentException("unitPrice '" + price + "' is not an amount like 12.50");
    }
    long cents =
        number(price.substring(0, dot), "unitPrice", 0, 1_000_000) * 100
            + number(price.substring(dot + 1), "unitPrice", 0, 99);
    if (!KNOWN.contains(fields[4])) {
      throw new IllegalArgumentException("currency '" + fields[4] + "' is not one of " + KNOWN);
    }
    number(fields[0], "id", 1, Long.MAX_VALUE);
    return message.withPayload(Map.of("cents", quantity * cents, "currency", fields[4]));
  }

  /** A checked order's amount in euro cents, at fixed rates. */
  static Message price(Message message) {
    @SuppressWarnings("unchecked")
    Map<String, Object> order = (Map<String, Object>) message.payload();
    long cents = (Long) order.get("cents");
    return message.withPayload(
        cents * PER_MILLE_OF_EURO.get((String) order.get("currency")) / 1000);
  }

  /** The sink: adds a group of euro cents to the totals. */
  static Message add(Message message) {
    List<?> group = (List<?>) message.payload();
    long cents = 0;
    for (Object amount : group) {
      cents += (Long) amount;
    }
    GROUPS.incrementAndGet();
    ORDERS.addAndGet(group.size());
    CENTS.addAndGet(cents);
    return message;
  }

  /** Starts the totals again, before a demo. */
  static void reset() {
    GROUPS.set(0);
    ORDERS.set(0);
    CENTS.set(0);
  }

  private static long number(String text, String field, long min, long max) {
    long value;
    try {
      value = Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(field + " '" + text + "' is not a whole number");
    }
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          field + " " + value + " is not from " + min + " to " + max);
    }
    return value;
  }
}
