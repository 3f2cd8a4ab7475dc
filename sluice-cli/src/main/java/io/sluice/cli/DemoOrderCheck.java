package io.sluice.cli;

import io.sluice.core.Message;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.Map;
import java.util.Set;

/**
 * The batch demo's validate step: reads an order line's fields (the CSV input made them a map of
 * column to text) into numbers, and fails the record, with the reason, when one is not what it must
 * be: a quantity from 1 to 999, a unit price with two decimals, a known currency.
 */
public final class DemoOrderCheck implements Processor {

  private static final Set<String> CURRENCIES = Set.of("EUR", "USD", "GBP");

  @Override
  public Message process(Message message) {
    String line = (String) message.payload();
    String[] fields = line.split(",", -1);
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
    String currency = fields[4];
    if (!CURRENCIES.contains(currency)) {
      throw new IllegalArgumentException("currency '" + currency + "' is not one of " + CURRENCIES);
    }
    return message.withPayload(
        Map.of(
            "id",
            number(fields[0], "id", 1, Long.MAX_VALUE),
            "customer",
            fields[1],
            "cents",
            quantity * cents,
            "currency",
            currency));
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

  @Override
  public ProcessingType processingType() {
    return ProcessingType.CPU_LITE;
  }

  @Override
  public String name() {
    return "demo-order-check";
  }
}
