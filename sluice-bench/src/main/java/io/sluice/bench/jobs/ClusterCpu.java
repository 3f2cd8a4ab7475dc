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
 * machine, so that what other work took of the machine can be told apart.
 *
 * @param machine the machine's busy time
 * @param postgres every process named postgres
 * @param backends the nodes' backends, by process id
 * @param nodes the node processes
 * @param driver this process
 */
record ClusterCpu(long machine, long postgres, Map<Long, Long> backends, long nodes, long driver) {

  /** Reads them now; {@code c} finds the backends whose application name is {@code name}. */
  static ClusterCpu now(Connection c, String name, List<Long> nodePids) throws SQLException {
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
        CpuTime.ofThisProcess());
  }

  /**
   * The nodes' backends' CPU time since {@code start}: a backend opened since counts whole, one
   * closed since is lost (the pools keep theirs for the run).
   */
  long backendsSince(ClusterCpu start) {
    long total = 0;
    for (Map.Entry<Long, Long> backend : backends.entrySet()) {
      total += backend.getValue() - start.backends.getOrDefault(backend.getKey(), 0L);
    }
    return total;
  }
}
