package io.sluice.bench.jobs;

import java.util.Locale;

/**
 * What one work or no-op run of E5 measured, and the two ways it is told: a CSV row ({@link
 * #HEADER}) and a readable line.
 *
 * @param config the configuration's name
 * @param nodes node processes
 * @param threads jobs running at once per node
 * @param prefetch jobs claimed ahead per node
 * @param jobs jobs measured
 * @param noop whether the jobs had no work
 * @param workMillis the work asked, all jobs together
 * @param makespan seconds from T0 until no job was left
 * @param counters what the nodes counted during the run
 * @param transactions the database's transactions, the driver's own left out
 * @param cpu CPU seconds: every postgres process, the nodes' backends, the nodes, and the share
 *     (percent) of the machine that other processes took
 * @param load the 1-minute load average before the run
 * @param vacuumSeconds how often the job tables were vacuumed, 0 for never
 * @param createSeconds how long the driver's one {@code createAll} of the measured jobs took, up to
 *     its commit (before T0, so not in the makespan)
 */
record E5Run(
    String config,
    int nodes,
    int threads,
    int prefetch,
    int jobs,
    boolean noop,
    long workMillis,
    double makespan,
    NodeCounters counters,
    long transactions,
    Cpu cpu,
    String load,
    long vacuumSeconds,
    double createSeconds) {

  /**
   * CPU seconds of the run.
   *
   * @param database every postgres process (other sessions' too)
   * @param backends the backends serving the nodes
   * @param nodes the node processes
   * @param othersPercent the share of the machine other processes took
   */
  record Cpu(double database, double backends, double nodes, double othersPercent) {}

  static final String HEADER =
      "config,nodes,threads,jobs,makespan_s,ideal_s,over_ideal_pct,lock_failures_per_job,"
          + "statements_per_job,transactions_per_job,db_cpu_s,db_cpu_ms_per_job,attempts,"
          + "jobs_per_s,mode,prefetch,backends_cpu_s,nodes_cpu_s,others_cpu_pct,load1,acquired,"
          + "executed,fenced,lock_failures,statements,transactions,slept_s,sleep_over_pct,"
          + "over_slept_ideal_pct,vacuum_s,create_s,create_jobs_per_s";

  /** The ideal makespan: the work over every execution thread. */
  double ideal() {
    return workMillis / 1000.0 / (nodes * threads);
  }

  /** How much longer than the ideal the run took, in percent. */
  double overIdeal() {
    return 100 * (makespan / ideal() - 1);
  }

  /** How much longer the sleeps took than asked, in percent: the machine's share of the loss. */
  double sleepOver() {
    return 100 * (slept() * 1000 / workMillis - 1);
  }

  /** How much longer than the ideal of the sleeps as they really took the run took, in percent. */
  double overSleptIdeal() {
    return 100 * (makespan / (slept() / (nodes * threads)) - 1);
  }

  private double slept() {
    return counters.workMicros() / 1e6;
  }

  private double perJob(double value) {
    return value / jobs;
  }

  private String ifWork(double percent) {
    return noop ? "" : String.format(Locale.ROOT, "%.2f", percent);
  }

  /** The run's CSV row, in {@link #HEADER}'s order. */
  String csv() {
    return String.join(
        ",",
        config,
        Integer.toString(nodes),
        Integer.toString(threads),
        Integer.toString(jobs),
        format("%.3f", makespan),
        format("%.3f", ideal()),
        ifWork(overIdeal()),
        format("%.4f", perJob(counters.lockFailures())),
        format("%.4f", perJob(counters.statements())),
        format("%.4f", perJob(transactions)),
        format("%.2f", cpu.database()),
        format("%.4f", perJob(cpu.database() * 1000)),
        Long.toString(counters.attempts()),
        format("%.0f", jobs / makespan),
        noop ? "noop" : "work",
        Integer.toString(prefetch),
        format("%.2f", cpu.backends()),
        format("%.2f", cpu.nodes()),
        format("%.1f", cpu.othersPercent()),
        load,
        Long.toString(counters.acquired()),
        Long.toString(counters.executed()),
        Long.toString(counters.fenced()),
        Long.toString(counters.lockFailures()),
        Long.toString(counters.statements()),
        Long.toString(transactions),
        format("%.2f", slept()),
        ifWork(sleepOver()),
        ifWork(overSleptIdeal()),
        Long.toString(vacuumSeconds),
        format("%.3f", createSeconds),
        format("%.0f", jobs / createSeconds));
  }

  /** The run in one readable line. */
  String summary() {
    String time =
        noop
            ? format("%.2f s", makespan)
            : format(
                "%.2f s (ideal %.2f s, %+.1f%%; %+.1f%% over the ideal of the sleeps, which took"
                    + " %+.1f%% of the work asked)",
                makespan, ideal(), overIdeal(), overSleptIdeal(), sleepOver());
    return format(
        "  %-11s %d node(s) × %d: %,d jobs in %s, %,.0f jobs/s (created in %.2f s, %,.0f jobs/s);"
            + " per job: lock failures %.3f, statements %.3f, transactions %.3f, database CPU %.3f"
            + " ms; attempts %,d; other processes took %.0f%% of the machine",
        config,
        nodes,
        threads,
        jobs,
        time,
        jobs / makespan,
        createSeconds,
        jobs / createSeconds,
        perJob(counters.lockFailures()),
        perJob(counters.statements()),
        perJob(transactions),
        perJob(cpu.database() * 1000),
        counters.attempts(),
        cpu.othersPercent());
  }

  private static String format(String format, Object... values) {
    return String.format(Locale.ROOT, format, values);
  }
}
