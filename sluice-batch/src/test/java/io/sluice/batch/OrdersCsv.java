package io.sluice.batch;

import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.io.IOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The tests' order file and its transformation: {@code id,name,amount,date} lines, a step that
 * upper-cases the name and doubles the amount, and the output line each input line should become.
 * Line {@code id} with {@code id % 97 == 0} has an amount that is no number (the step fails it);
 * with {@code id % 101 == 0} the step leaves out the date (the output cannot write it).
 */
final class OrdersCsv {

  static final List<String> COLUMNS = List.of("id", "name", "amount", "date");

  private OrdersCsv() {}

  /** Writes {@code count} order lines after the header to {@code file}. */
  static Path write(Path file, int count) throws IOException {
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write("id,name,amount,date\n");
      for (int id = 1; id <= count; id++) {
        out.write(id + "," + name(id) + "," + amount(id) + ",2026-11-" + (10 + id % 20) + "\n");
      }
    }
    return file;
  }

  private static String name(int id) {
    return id % 7 == 0 ? "\"Smith, Jo " + id + "\"" : "customer " + id;
  }

  private static String amount(int id) {
    return id % 97 == 0 ? "n/a" : (id % 1000) + "." + (id % 100 < 10 ? "0" : "") + id % 100;
  }

  /** The step's processor: NAME upper-cased, amount doubled; the date dropped on some lines. */
  static Processor transform() {
    return Processor.of(
        ProcessingType.CPU_LITE,
        m -> {
          @SuppressWarnings("unchecked")
          Map<String, String> in = (Map<String, String>) m.payload();
          Map<String, Object> out = new LinkedHashMap<>();
          int id = Integer.parseInt(in.get("id"));
          out.put("id", id);
          out.put("name", in.get("name").toUpperCase(Locale.ROOT));
          out.put("amount", new BigDecimal(in.get("amount")).multiply(BigDecimal.TWO));
          if (id % 101 != 0) {
            out.put("date", in.get("date"));
          }
          return m.withPayload(out);
        });
  }

  /** The output lines of {@code count} input lines, header first, failed lines left out. */
  static List<String> expected(int count) {
    List<String> lines = new ArrayList<>();
    lines.add("id,name,amount,date");
    for (int id = 1; id <= count; id++) {
      if (id % 97 == 0 || id % 101 == 0) {
        continue;
      }
      String name = name(id).toUpperCase(Locale.ROOT);
      String amount = new BigDecimal(amount(id)).multiply(BigDecimal.TWO).toPlainString();
      lines.add(id + "," + name + "," + amount + ",2026-11-" + (10 + id % 20));
    }
    return lines;
  }

  /** How many of {@code count} lines fail: at the step, or at the output. */
  static long failures(int count) {
    return count / 97 + count / 101 - count / (97 * 101);
  }
}
