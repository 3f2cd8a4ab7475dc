package io.sluice.bench.batch;

import io.sluice.core.Message;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The order file of E1's CSV job, as Spring Batch's samples have it: {@code id,name,amount,date}
 * lines; the transformation (the name upper-cased, the amount with 19% tax added, rounded half up
 * to cents, as a new column {@code total}); and each output line worked out again from the line
 * number alone, to verify what a job wrote.
 */
final class CsvOrders {

  static final String INPUT_HEADER = "id,name,amount,date";
  static final List<String> OUTPUT_COLUMNS = List.of("id", "name", "amount", "date", "total");
  static final String OUTPUT_HEADER = String.join(",", OUTPUT_COLUMNS);

  private static final BigDecimal TAX = new BigDecimal("1.19");

  private CsvOrders() {}

  /** Writes the header and {@code count} order lines to {@code file}. */
  static void write(Path file, long count) throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write(INPUT_HEADER);
      out.write('\n');
      for (long i = 1; i <= count; i++) {
        out.write(inputLine(i));
        out.write('\n');
      }
    }
  }

  /** Order {@code i}: its id, a customer's name, an amount with cents, a date in 2026. */
  static String inputLine(long i) {
    return i
        + ",customer "
        + (i * 7919 % 100_003)
        + ","
        + (i % 5_000)
        + "."
        + twoDigits(i % 100)
        + ",2026-"
        + twoDigits(1 + i % 12)
        + "-"
        + twoDigits(1 + i % 28);
  }

  /** The output line of order {@code i}, worked out from {@code i} alone. */
  static String expectedLine(long i) {
    BigDecimal amount = new BigDecimal((i % 5_000) + "." + twoDigits(i % 100));
    return i
        + ",CUSTOMER "
        + (i * 7919 % 100_003)
        + ","
        + amount.toPlainString()
        + ",2026-"
        + twoDigits(1 + i % 12)
        + "-"
        + twoDigits(1 + i % 28)
        + ","
        + total(amount).toPlainString();
  }

  private static String twoDigits(long n) {
    return n < 10 ? "0" + n : Long.toString(n);
  }

  static BigDecimal total(BigDecimal amount) {
    return amount.multiply(TAX).setScale(2, RoundingMode.HALF_UP);
  }

  /** Sluice's step: the CSV input's map of column to text into the output's map of values. */
  static Message transform(Message message) {
    @SuppressWarnings("unchecked")
    Map<String, String> in = (Map<String, String>) message.payload();
    BigDecimal amount = new BigDecimal(in.get("amount"));
    Map<String, Object> out = new LinkedHashMap<>(8);
    out.put("id", in.get("id"));
    out.put("name", in.get("name").toUpperCase(Locale.ROOT));
    out.put("amount", amount);
    out.put("date", in.get("date"));
    out.put("total", total(amount));
    return message.withPayload(out);
  }

  /**
   * The plain-Java baseline: reads {@code in} with a BufferedReader, applies the same
   * transformation to each line and writes it with a BufferedWriter; returns the records written.
   */
  static long plain(Path in, Path out) throws IOException {
    long records = 0;
    try (BufferedReader reader = Files.newBufferedReader(in, StandardCharsets.UTF_8);
        BufferedWriter writer = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      String header = reader.readLine();
      if (!INPUT_HEADER.equals(header)) {
        throw new IllegalStateException("not an order file: " + header);
      }
      writer.write(OUTPUT_HEADER);
      writer.write('\n');
      StringBuilder line = new StringBuilder(64);
      for (String text = reader.readLine(); text != null; text = reader.readLine()) {
        String[] fields = text.split(",", -1);
        BigDecimal amount = new BigDecimal(fields[2]);
        line.setLength(0);
        line.append(fields[0])
            .append(',')
            .append(fields[1].toUpperCase(Locale.ROOT))
            .append(',')
            .append(amount.toPlainString())
            .append(',')
            .append(fields[3])
            .append(',')
            .append(total(amount).toPlainString())
            .append('\n');
        writer.append(line);
        records++;
      }
    }
    return records;
  }

  /**
   * Checks {@code out} line by line: the header, then the expected line of every order 1 to {@code
   * count} in order, nothing else; an {@link IllegalStateException} naming the first line that is
   * missing, extra or wrong.
   */
  static void verify(Path out, long count) throws IOException {
    try (BufferedReader reader = Files.newBufferedReader(out, StandardCharsets.UTF_8)) {
      String header = reader.readLine();
      if (!OUTPUT_HEADER.equals(header)) {
        throw new IllegalStateException(out + " line 1: expected the header, found " + header);
      }
      for (long i = 1; i <= count; i++) {
        String line = reader.readLine();
        String expected = expectedLine(i);
        if (!expected.equals(line)) {
          throw new IllegalStateException(
              out
                  + " line "
                  + (i + 1)
                  + ": expected '"
                  + expected
                  + "', found "
                  + (line == null ? "the end of the file (lines missing)" : "'" + line + "'"));
        }
      }
      String extra = reader.readLine();
      if (extra != null) {
        throw new IllegalStateException(
            out + " line " + (count + 2) + ": an extra line after the last order: '" + extra + "'");
      }
    }
  }
}
