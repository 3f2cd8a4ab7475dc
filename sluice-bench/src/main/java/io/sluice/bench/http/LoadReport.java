package io.sluice.bench.http;

import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import org.HdrHistogram.Histogram;

/**
 * One CSV line per run of {@link HttpLoadClient}: what ran, what was asked, what came back.
 *
 * @param labels target, strategy and threads as the runner names them (echoed, not interpreted)
 * @param path the endpoint requested
 * @param plan the load
 * @param results what the clients saw
 * @param runNanos from the start to the last client's end
 * @param clientCpuNanos the client process's CPU time over the run
 * @param serverCpuNanos the server process's CPU time over the run (0 when no pid was given)
 * @param machineCpuNanos the machine's busy CPU time over the run
 */
record LoadReport(
    String labels,
    String path,
    LoadPlan plan,
    LoadResults results,
    long runNanos,
    long clientCpuNanos,
    long serverCpuNanos,
    long machineCpuNanos) {

  static final String HEADER =
      "target,strategy,threads,path,clients,mode,interval_s,warm_up_s,seconds,requests,ok,req_s,"
          + "ideal_req_s,errors,errors_by_kind,p50_ms,p90_ms,p99_ms,p999_ms,max_ms,makespan_s,"
          + "client_cpu_pct,server_cpu_pct,others_cpu_pct";

  String csvLine() {
    Map<String, Long> errors = results.errors();
    long errorCount = errors.values().stream().mapToLong(Long::longValue).sum();
    StringJoiner kinds = new StringJoiner(";");
    errors.forEach((kind, count) -> kinds.add(kind + ":" + count));
    Histogram latencies = results.latencies();
    boolean batch = plan.mode() == LoadPlan.Mode.BATCH;
    double makespan = batch ? seconds(results.lastAnswerSinceStart()) : Double.NaN;
    double reqPerSecond =
        batch
            ? results.ok() / makespan
            : results.answeredInWindow() / seconds(plan.measuredNanos());
    double machine = runNanos * (double) Runtime.getRuntime().availableProcessors();
    StringJoiner line = new StringJoiner(",");
    line.add(labels)
        .add(path)
        .add(Integer.toString(plan.clients()))
        .add(plan.mode().name().toLowerCase(Locale.ROOT))
        .add(number(seconds(plan.intervalNanos()), 3))
        .add(number(batch ? 0 : seconds(plan.warmUpNanos()), 1))
        .add(number(batch ? makespan : seconds(plan.measuredNanos()), 1))
        .add(Long.toString(results.ok() + errorCount))
        .add(Long.toString(results.ok()))
        .add(number(reqPerSecond, 1))
        .add(number(plan.idealPerSecond(), 1))
        .add(Long.toString(errorCount))
        .add(kinds.toString())
        .add(millis(latencies, 50))
        .add(millis(latencies, 90))
        .add(millis(latencies, 99))
        .add(millis(latencies, 99.9))
        .add(number(latencies.getMaxValue() / 1e3, 3))
        .add(number(makespan, 3))
        .add(number(100 * clientCpuNanos / machine, 1))
        .add(number(100 * serverCpuNanos / machine, 1))
        .add(
            number(
                100 * Math.max(0, machineCpuNanos - clientCpuNanos - serverCpuNanos) / machine, 1));
    return line.toString();
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }

  private static String millis(Histogram latencies, double percentile) {
    return number(latencies.getValueAtPercentile(percentile) / 1e3, 3);
  }

  private static String number(double value, int decimals) {
    return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%." + decimals + "f", value);
  }
}
