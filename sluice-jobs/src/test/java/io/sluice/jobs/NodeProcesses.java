package io.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testkit.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Executor nodes as processes of their own ({@link ClusterNodeChild}), each writing its output to a
 * file of {@code logs}, for the cluster tests: started, signalled, read, and stopped after the
 * test.
 */
final class NodeProcesses {

  private final Path logs;
  private final List<Process> nodes = new ArrayList<>();

  NodeProcesses(Path logs) {
    this.logs = logs;
  }

  /** Starts node {@code node} on {@code url} with the child's further arguments. */
  Process start(String url, String node, String... args) throws IOException {
    List<String> childArgs = new ArrayList<>(List.of(url, node));
    childArgs.addAll(List.of(args));
    Process process =
        new ProcessBuilder(
                ChildJvm.command(ClusterNodeChild.class, childArgs.toArray(String[]::new)))
            .redirectErrorStream(true)
            .redirectOutput(logs.resolve(node + ".out").toFile())
            .start();
    nodes.add(process);
    return process;
  }

  /** The processes started, in order. */
  List<Process> all() {
    return nodes;
  }

  /** What node {@code node} printed so far. */
  String output(String node) {
    try {
      return Files.readString(logs.resolve(node + ".out"));
    } catch (IOException e) {
      return "(no output: " + e + ")";
    }
  }

  /** Whether every node of {@code names} said it is ready. */
  boolean ready(List<String> names) {
    return names.stream().allMatch(node -> output(node).contains("ready " + node));
  }

  /** Sends {@code signal} (STOP, CONT...) to {@code node}. */
  static void signal(Process node, String signal) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(node.pid())).start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0)
        .as("kill -%s %d", signal, node.pid())
        .isTrue();
  }

  /** The number the query {@code sql} answers. */
  static long number(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** {@code e} with what the nodes of {@code names} printed, for a failure's message. */
  AssertionError withOutputs(Throwable e, List<String> names) {
    StringBuilder all = new StringBuilder();
    for (String node : names) {
      all.append("\n--- ").append(node).append(":\n").append(output(node));
    }
    return new AssertionError(e.getMessage() + all, e);
  }

  /** Stops every node gracefully (closing its standard input), forcibly when it does not stop. */
  void stopAll() throws Exception {
    for (Process node : nodes) {
      node.getOutputStream().close();
    }
    for (Process node : nodes) {
      if (!node.waitFor(20, TimeUnit.SECONDS)) {
        node.destroyForcibly();
        node.waitFor(10, TimeUnit.SECONDS);
      }
    }
  }
}
