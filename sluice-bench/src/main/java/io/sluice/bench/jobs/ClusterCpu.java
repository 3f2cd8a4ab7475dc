package io.sluice.bench.jobs;

import io.sluice.bench.CpuTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time used so far (nanoseconds) by the parties of an E5 run, read at its start and end: every
 * PostgreSQL process (the server's whole cost, other users' sessions included), the backends
 * serving the nodes (found by their application name), the node processes, this driver and the
 * machine, so that what other work took of the machine can be told apart. The batch-across-nodes
 * benchmark reads it too; its nodes and their backends end before the run's last reading, so it
 * adds what ended processes used ({@code postgresEnded}, {@code endedChildren}) and keeps the last
 * reading of each backend that closed ({@link #keepingClosedBackendsOf}).
 *
 * @param machine the machine's busy time
 * @param postgres every process named postgres
 * @param backends the nodes' backends, by process id
 * @param nodes the node processes
 * @param driver this process
 * @param postgresEnded the PostgreSQL processes that ended (backends whose connection closed), as
 *     their parents count them
 * @param endedChildren the processes this one started that ended (and were waited for)
 */
public record ClusterCpu(
    long machine,
    long postgres,
    Map<Long, Long> backends,
    long nodes,
    long driver,
    long postgresEnded,
    long endedChildren) {

  /** Reads them now; {@code c} finds the backends whose application name is {@code name}. */
  public static ClusterCpu now(Connection c, String name, List<Long> nodePids) throws SQLException {
    Map<Long, Long> backends = new HashMap<>();
    try (PreparedStatement s =
        c.prepareStatement("SELECT pid FROM pg_stat_activity WHERE application_name = ?")) {
      s.setString(1, name);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          backends.put(rs.getLong(1), CpuTime.ofProcess(rs.getLong(1)));
        }
      }
    }
    long nodes = nodePids.stream().mapToLong(CpuTime::ofProcess).sum();
    return new ClusterCpu(
        CpuTime.ofMachine(),
        CpuTime.ofProcessesNamed("postgres"),
        backends,
        nodes,
        CpuTime.ofThisProcess(),
        CpuTime.ofEndedChildrenOfProcessesNamed("postgres"),
        CpuTime.ofEndedChildren());
  }

  /**
   * This reading, with the backends of {@code earlier} that have closed since kept at their last
   * reading: read every few hundred milliseconds while nodes connect and disconnect, the last
   * reading then holds every backend that served them.
   */
  public ClusterCpu keepingClosedBackendsOf(ClusterCpu earlier) {
    Map<Long, Long> all = new HashMap<>(earlier.backends);
    all.putAll(backends);
    return new ClusterCpu(machine, postgres, all, nodes, driver, postgresEnded, endedChildren);
  }

  /**
   * The nodes' backends' CPU time since {@code start}: a backend opened since counts whole, one
   * closed since is lost (the pools keep theirs for the run).
   */
  public long backendsSince(ClusterCpu start) {
    long total = 0;
    for (Map.Entry<Long, Long> backend : backends.entrySet()) {
      total += backend.getValue() - start.backends.getOrDefault(backend.getKey(), 0L);
    }
    return total;
  }
}
