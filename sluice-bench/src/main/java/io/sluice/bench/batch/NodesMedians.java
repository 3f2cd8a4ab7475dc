package io.sluice.bench.batch;

import static io.sluice.bench.RunFiles.number;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The summary of {@link NodesBenchmark}: per configuration, the run with the median rate of rounds
 * 1 and on, the median of the rounds' speed-ups against one node and of their ratios to SQLite, and
 * the cold run's rate, as a Markdown table for docs/benchmarks.md.
 */
final class NodesMedians {

  private NodesMedians() {}

  /** The medians over rounds 1 and on, as a Markdown table. */
  static void print(
      Map<String, List<NodesRun>> all,
      Map<String, List<Double>> speedUps,
      Map<String, List<Double>> vsSqlite,
      Map<String, NodesRun> cold) {
    System.out.println();
    System.out.println(
        "| store, nodes | records/s, median (all runs) | wall s | speed-up vs 1 node, median"
            + " (all rounds) | goal | vs SQLite | per-node share % | commits/block |"
            + " statements/block | rows written/block | PostgreSQL CPU ms/block (nodes'"
            + " backends) | nodes' CPU µs/record | service: % of a core, most in flight |"
            + " machine busy | others | cold records/s | runs |");
    System.out.println(
        "| --- | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---:"
            + " | ---: | ---: | ---: | ---: |");
    for (Map.Entry<String, List<NodesRun>> entry : all.entrySet()) {
      List<NodesRun> runs = entry.getValue();
      NodesRun median =
          runs.stream()
              .sorted(Comparator.comparingDouble(NodesRun::recordsPerSecond))
              .toList()
              .get(runs.size() / 2);
      String key = entry.getKey();
      boolean sqlite = key.equals("sqlite");
      List<Double> ups = speedUps.getOrDefault(key, List.of());
      double speedUp = ups.isEmpty() ? Double.NaN : median(ups);
      int nodes = median.nodes().size();
      String goal =
          sqlite || nodes == 1
              ? ""
              : nodes == 2
                  ? "≥ 1.8: " + (speedUp >= 1.8 ? "met" : "missed")
                  : nodes == 3 ? "≥ 2.5: " + (speedUp >= 2.5 ? "met" : "missed") : "";
      NodesRun coldRun = cold.get(key);
      System.out.println(
          String.join(
              " | ",
              "| " + (sqlite ? "SQLite, 1" : "PostgreSQL, " + nodes),
              number(median.recordsPerSecond(), 0)
                  + " ("
                  + String.join(
                      " / ", runs.stream().map(r -> number(r.recordsPerSecond(), 0)).toList())
                  + ")",
              number(median.wallSeconds(), 2),
              sqlite
                  ? ""
                  : number(speedUp, 2)
                      + "× ("
                      + String.join(" / ", ups.stream().map(u -> number(u, 2)).toList())
                      + ")",
              goal,
              sqlite || !vsSqlite.containsKey(key)
                  ? ""
                  : number(median(vsSqlite.get(key)), 2) + "×",
              sqlite ? "" : median.shares().replace(" ", " / "),
              sqlite ? "" : number(median.perBlock(median.db().commits()), 2),
              sqlite || median.db().statements() < 0
                  ? "n/a"
                  : number(median.perBlock(median.db().statements()), 2),
              sqlite
                  ? ""
                  : number(
                      median.perBlock(
                          median.db().rows().inserted()
                              + median.db().rows().updated()
                              + median.db().rows().deleted()),
                      2),
              sqlite
                  ? ""
                  : number(median.perBlock(median.cpu().postgres() * 1000), 3)
                      + " ("
                      + number(median.perBlock(median.cpu().backends() * 1000), 3)
                      + ")",
              number(median.cpu().nodes() * 1e6 / median.records(), 1),
              number(median.servicePercentOfCore(), 0) + "%, " + median.inFlightPeak(),
              number(median.cpu().busyPercent(), 0) + "%",
              number(median.cpu().othersPercent(), 0) + "%",
              coldRun == null ? "" : number(coldRun.recordsPerSecond(), 0),
              runs.size() + " |"));
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
