package io.sluice.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * What the scenario benchmarks write beside their runs: CSV files that append, numbers written the
 * same way everywhere, and the machine's load average.
 */
public final class RunFiles {

  private RunFiles() {}

  /** {@code value} with {@code decimals} decimals, a point as the separator. */
  public static String number(double value, int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f", value);
  }

  /** The 1, 5 and 15 minute load averages, as uptime prints them. */
  public static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException e) {
      return "? ? ?";
    }
  }

  /** A CSV file appended to, {@code header} written first when it is new or empty. */
  public static PrintStream appendingCsv(Path path, String header) throws IOException {
    boolean fresh = !Files.exists(path) || Files.size(path) == 0;
    PrintStream csv =
        new PrintStream(
            Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND));
    if (fresh) {
      csv.println(header);
    }
    return csv;
  }
}
