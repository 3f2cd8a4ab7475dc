package io.sluice.bench.batch;

import static io.sluice.bench.RunFiles.number;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What one run of {@link NodesBenchmark} measured: the job on {@code nodes} processes sharing the
 * PostgreSQL store, or on one process and its embedded SQLite store; told as a CSV row ({@link
 * #HEADER}) and a readable line.
 *
 * @param round the round (0 is the cold one)
 * @param store {@code postgresql} or {@code sqlite}
 * @param records records in the input
 * @param blockSize records per block
 * @param wallSeconds from the first node's start to the last one's exit
 * @param instanceSeconds the instance's own elapsed time, as the store has it (its last update less
 *     its creation)
 * @param nodes each node process
 * @param db what the database paid (PostgreSQL only; zeros on SQLite)
 * @param cpu CPU seconds of each party and the machine's shares
 * @param serviceCalls calls the service answered during the run
 * @param inFlightPeak the most calls the service had in flight at once
 * @param load1 the 1-minute load average at the end
 * @param ended when it ended
 */
record NodesRun(
    int round,
    String store,
    long records,
    int blockSize,
    double wallSeconds,
    double instanceSeconds,
    List<Node> nodes,
    Db db,
    Cpu cpu,
    long serviceCalls,
    long inFlightPeak,
    String load1,
    Instant ended) {

  /**
   * One node process.
   *
   * @param id its node id ({@code sluice.jobs.nodeId})
   * @param startMs when it started, after the first node's start
   * @param endMs when it ended, after the first node's start
   * @param exit its exit code
   * @param cpuSeconds its CPU time at the last reading before it ended (read every 200 ms)
   * @param processed the records it took through the last step ({@code sluice_batch_node})
   * @param blocks the blocks it took out
   */
  record Node(
      String id,
      long startMs,
      long endMs,
      int exit,
      double cpuSeconds,
      long processed,
      long blocks) {}

  /**
   * What the database paid during the run.
   *
   * @param commits the database's {@code xact_commit} delta, the driver's own polls left out
   * @param rollbacks its {@code xact_rollback} delta
   * @param statements {@code pg_stat_statements} calls delta, the driver's polls left out; -1 when
   *     it cannot be read
   * @param rows rows written to and scans of the run's tables
   */
  record Db(long commits, long rollbacks, long statements, NodesStore.Rows rows) {
    static final Db NONE = new Db(0, 0, -1, new NodesStore.Rows(0, 0, 0, 0, 0));
  }

  /**
   * CPU seconds during the run.
   *
   * @param postgres every PostgreSQL process, those that ended included (the whole server)
   * @param backends the backends serving the nodes
   * @param nodes the node processes, exactly (their time once they ended)
   * @param service the downstream service
   * @param driver this process
   * @param busyPercent the share of the machine busy
   * @param othersPercent the share of the machine other processes took
   */
  record Cpu(
      double postgres,
      double backends,
      double nodes,
      double service,
      double driver,
      double busyPercent,
      double othersPercent) {}

  static final String HEADER =
      "round,cold,store,nodes,records,block_size,wall_s,instance_s,records_per_s,"
          + "speedup_vs_1_node,speedup_instance,vs_sqlite,node_shares_pct,node_blocks,"
          + "node_starts_ms,node_ends_ms,node_cpu_s,commits,commits_per_block,rollbacks,"
          + "statements,statements_per_block,rows_ins,rows_upd,rows_del,rows_written_per_block,"
          + "index_scans_per_block,pg_cpu_s,pg_cpu_ms_per_block,backends_cpu_ms_per_block,"
          + "nodes_cpu_s,nodes_cpu_us_per_record,service_cpu_s,service_cpu_pct,service_calls,"
          + "in_flight_peak,driver_cpu_s,machine_busy_pct,others_cpu_pct,load1,ended";

  /** The configuration's key: {@code sqlite} or {@code N nodes}. */
  String key() {
    return store.equals("sqlite")
        ? "sqlite"
        : nodes.size() + " node" + (nodes.size() > 1 ? "s" : "");
  }

  boolean cold() {
    return round == 0;
  }

  double recordsPerSecond() {
    return records / wallSeconds;
  }

  long blocks() {
    return (records + blockSize - 1) / blockSize;
  }

  double perBlock(double value) {
    return value / blocks();
  }

  /** The service's CPU over the run, in percent of one core. */
  double servicePercentOfCore() {
    return 100 * cpu.service() / wallSeconds;
  }

  /** The nodes' shares in percent of the records, in node order. */
  String shares() {
    return join(n -> number(100.0 * n.processed() / Math.max(1, records), 1));
  }

  String join(Function<Node, String> field) {
    return nodes.stream().map(field).collect(Collectors.joining(" "));
  }

  /**
   * The run's CSV row; {@code oneNode} is the same round's one-node run and {@code sqlite} its
   * SQLite run (either may be null).
   */
  String csv(NodesRun oneNode, NodesRun sqlite) {
    return String.join(
        ",",
        Integer.toString(round),
        Boolean.toString(cold()),
        store,
        Integer.toString(nodes.size()),
        Long.toString(records),
        Integer.toString(blockSize),
        number(wallSeconds, 3),
        number(instanceSeconds, 3),
        number(recordsPerSecond(), 0),
        oneNode == null || store.equals("sqlite")
            ? ""
            : number(oneNode.wallSeconds / wallSeconds, 3),
        oneNode == null || store.equals("sqlite")
            ? ""
            : number(oneNode.instanceSeconds / instanceSeconds, 3),
        sqlite == null ? "" : number(recordsPerSecond() / sqlite.recordsPerSecond(), 3),
        shares(),
        join(n -> Long.toString(n.blocks())),
        join(n -> Long.toString(n.startMs())),
        join(n -> Long.toString(n.endMs())),
        join(n -> number(n.cpuSeconds(), 2)),
        Long.toString(db.commits()),
        number(perBlock(db.commits()), 2),
        Long.toString(db.rollbacks()),
        db.statements() < 0 ? "" : Long.toString(db.statements()),
        db.statements() < 0 ? "" : number(perBlock(db.statements()), 2),
        Long.toString(db.rows().inserted()),
        Long.toString(db.rows().updated()),
        Long.toString(db.rows().deleted()),
        number(perBlock(db.rows().inserted() + db.rows().updated() + db.rows().deleted()), 2),
        number(perBlock(db.rows().indexScans()), 2),
        number(cpu.postgres(), 2),
        number(perBlock(cpu.postgres() * 1000), 3),
        number(perBlock(cpu.backends() * 1000), 3),
        number(cpu.nodes(), 2),
        number(cpu.nodes() * 1e6 / records, 1),
        number(cpu.service(), 2),
        number(servicePercentOfCore(), 1),
        Long.toString(serviceCalls),
        Long.toString(inFlightPeak),
        number(cpu.driver(), 2),
        number(cpu.busyPercent(), 1),
        number(cpu.othersPercent(), 1),
        load1,
        ended.toString());
  }

  /** The run in one readable line. */
  String summary() {
    String nodeText =
        nodes.stream()
            .map(
                n ->
                    String.format(
                        Locale.ROOT,
                        "%s %.1f%% (%d blocks, start +%d ms, end +%d ms, CPU %.1f s)",
                        n.id(),
                        100.0 * n.processed() / Math.max(1, records),
                        n.blocks(),
                        n.startMs(),
                        n.endMs(),
                        n.cpuSeconds()))
            .collect(Collectors.joining("; "));
    String dbText =
        store.equals("sqlite")
            ? ""
            : String.format(
                Locale.ROOT,
                "; per block: %.2f commits, %s statements, %.2f rows written, PostgreSQL CPU %.3f"
                    + " ms (nodes' backends %.3f)",
                perBlock(db.commits()),
                db.statements() < 0 ? "n/a" : number(perBlock(db.statements()), 2),
                perBlock(db.rows().inserted() + db.rows().updated() + db.rows().deleted()),
                perBlock(cpu.postgres() * 1000),
                perBlock(cpu.backends() * 1000));
    return String.format(
        Locale.ROOT,
        "  round %d%s %-8s %,d records in %.2f s (instance %.2f s), %,.0f records/s%s; nodes:"
            + " %s; nodes' CPU %.2f s (%.1f µs/record), service %.0f%% of a core (%,d calls, at"
            + " most %d in flight), machine busy %.0f%%, others %.0f%%, load %s",
        round,
        cold() ? " (cold)" : "",
        key(),
        records,
        wallSeconds,
        instanceSeconds,
        recordsPerSecond(),
        dbText,
        nodeText,
        cpu.nodes(),
        cpu.nodes() * 1e6 / records,
        servicePercentOfCore(),
        serviceCalls,
        inFlightPeak,
        cpu.busyPercent(),
        cpu.othersPercent(),
        load1);
  }
}
