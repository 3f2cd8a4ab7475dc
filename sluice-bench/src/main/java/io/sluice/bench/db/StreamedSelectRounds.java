package io.sluice.bench.db;

import io.sluice.bench.RunFiles;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@link DbBenchmark#streamedSelect}'s two sides in one JVM, one op of each per round, the order
 * swapped every round: the ratio of a round is measured under the load of that round. JMH runs each
 * {@code runner} in forks of its own, one after the other, so on a shared machine a change of load
 * between them moves the ratio more than any change in Sluice (the table of the fourth pass in
 * docs/benchmarks.md). The first op of each side is reported apart: a user's first select meets it.
 *
 * <p>Run: {@code ./mvnw -q -pl sluice-bench -am package -DskipTests && sluice-bench/run-main.sh 1g
 * io.sluice.bench.db.StreamedSelectRounds [warm-up rounds, 40] [measured rounds, 60]}
 */
public final class StreamedSelectRounds {

  private StreamedSelectRounds() {}

  public static void main(String[] args) throws Exception {
    int warmUp = args.length > 0 ? Integer.parseInt(args[0]) : 40;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
    Blackhole hole =
        new Blackhole(
            "Today's password is swordfish. I understand instantiating Blackholes directly is"
                + " dangerous.");
    DbBenchmark state = new DbBenchmark();
    state.runner = "sluice";
    state.start();
    try {
      long coldLoop = timed(() -> state.streamedByLoop(hole));
      long coldSluice = timed(state::streamedBySluice);
      for (int i = 0; i < warmUp; i++) {
        state.streamedByLoop(hole);
        state.streamedBySluice();
      }
      double[] loop = new double[rounds];
      double[] sluice = new double[rounds];
      double[] ratio = new double[rounds];
      for (int i = 0; i < rounds; i++) {
        if (i % 2 == 0) {
          loop[i] = timed(() -> state.streamedByLoop(hole)) / 1e6;
          sluice[i] = timed(state::streamedBySluice) / 1e6;
        } else {
          sluice[i] = timed(state::streamedBySluice) / 1e6;
          loop[i] = timed(() -> state.streamedByLoop(hole)) / 1e6;
        }
        ratio[i] = loop[i] / sluice[i];
      }
      System.out.printf(
          Locale.ROOT,
          "streamed select of %,d rows, %d rounds after %d of warm-up, load average %s%n"
              + "  cold first op: loop %.1f ms, sluice %.1f ms%n"
              + "  loop ms    p25 / median / p75: %s%n"
              + "  sluice ms  p25 / median / p75: %s%n"
              + "  loop / sluice, per round, p25 / median / p75: %s%n",
          DbBenchmark.SELECT_ROWS,
          rounds,
          warmUp,
          RunFiles.loadAverage(),
          coldLoop / 1e6,
          coldSluice / 1e6,
          quartiles(loop, "%.1f"),
          quartiles(sluice, "%.1f"),
          quartiles(ratio, "%.3f"));
    } finally {
      state.stop();
    }
  }

  private interface Op {
    long run() throws Exception;
  }

  private static long timed(Op op) throws Exception {
    long start = System.nanoTime();
    long rows = op.run();
    long took = System.nanoTime() - start;
    if (rows != DbBenchmark.SELECT_ROWS) {
      throw new IllegalStateException(
          "an op saw " + rows + " rows, not " + DbBenchmark.SELECT_ROWS);
    }
    return took;
  }

  private static String quartiles(double[] values, String format) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    List<String> out = new ArrayList<>();
    for (double q : new double[] {0.25, 0.5, 0.75}) {
      out.add(
          String.format(Locale.ROOT, format, sorted[(int) Math.round(q * (sorted.length - 1))]));
    }
    return String.join(" / ", out);
  }
}
