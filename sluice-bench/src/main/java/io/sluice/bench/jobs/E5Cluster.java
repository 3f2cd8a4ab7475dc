package io.sluice.bench.jobs;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.sluice.testkit.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The E5 nodes of one run, each an {@link E5Node} process started by {@link ChildJvm}: started
 * together, waited for until each says {@code ready}, stopped by closing their standard input, and
 * then asked for what they counted. Each node's log (its standard error) goes to a file in {@code
 * logs}, named in any failure.
 */
final class E5Cluster implements AutoCloseable {

  private static final Duration READY_WITHIN = Duration.ofSeconds(60);
  private static final Duration STOP_WITHIN = Duration.ofSeconds(60);

  /** One node process and the lines it printed. */
  private record Node(String id, Process process, List<String> lines, Path log, Thread reader) {

    boolean said(String prefix) {
      return lines.stream().anyMatch(l -> l.startsWith(prefix));
    }
  }

  /** What the nodes reported when they stopped: counters summed, latencies merged (µs). */
  record Report(NodeCounters counters, long[] latencies) {}

  private final List<Node> nodes = new ArrayList<>();

  /**
   * Starts {@code count} nodes named node-1… on {@code url}, each with {@code config}, {@code
   * jvmOptions} (JDK_JAVA_OPTIONS, may be blank) and latency recording when asked.
   */
  E5Cluster(
      int count, String url, E5NodeConfig config, boolean latency, String jvmOptions, Path logs)
      throws IOException {
    Files.createDirectories(logs);
    try {
      for (int i = 1; i <= count; i++) {
        String id = "node-" + i;
        List<String> args = new ArrayList<>(List.of("--url", url, "--node", id));
        args.addAll(List.of("--latency", Boolean.toString(latency)));
        args.addAll(config.arguments());
        Path log = logs.resolve(id + ".log");
        ProcessBuilder builder =
            new ProcessBuilder(ChildJvm.command(E5Node.class, args.toArray(String[]::new)))
                .redirectError(log.toFile());
        if (!jvmOptions.isBlank()) {
          builder.environment().put("JDK_JAVA_OPTIONS", jvmOptions);
        }
        Process process = builder.start();
        List<String> lines = new CopyOnWriteArrayList<>();
        Thread reader =
            Thread.ofPlatform().daemon().name("e5-read-" + id).start(() -> read(process, lines));
        nodes.add(new Node(id, process, lines, log, reader));
      }
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  private static void read(Process process, List<String> lines) {
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        lines.add(line);
      }
    } catch (IOException e) {
      // The process ended: what it printed is in lines.
    }
  }

  /** The process ids of the nodes, to read their CPU time. */
  List<Long> pids() {
    return nodes.stream().map(n -> n.process().pid()).toList();
  }

  /** Waits until every node said ready; fails naming a node that died or never did. */
  void awaitReady() throws InterruptedException {
    long deadline = System.nanoTime() + READY_WITHIN.toNanos();
    for (Node node : nodes) {
      while (!node.said("ready")) {
        if (!node.process().isAlive()) {
          throw failure(node, "died before it was ready");
        }
        if (System.nanoTime() > deadline) {
          throw failure(node, "was not ready within " + READY_WITHIN.toSeconds() + " s");
        }
        Thread.sleep(20);
      }
    }
  }

  /** Fails naming the first node that is no longer running. */
  void requireAlive() {
    for (Node node : nodes) {
      if (!node.process().isAlive()) {
        throw failure(node, "died during the run");
      }
    }
  }

  /** The nodes' counters so far, summed: each is asked and answers with a new counters line. */
  NodeCounters counters() throws IOException, InterruptedException {
    List<Long> seen = new ArrayList<>();
    for (Node node : nodes) {
      seen.add(node.lines().stream().filter(NodeCounters::isCounters).count());
      node.process().getOutputStream().write((E5Node.ASK_COUNTERS + "\n").getBytes(UTF_8));
      node.process().getOutputStream().flush();
    }
    NodeCounters total = NodeCounters.NONE;
    long deadline = System.nanoTime() + READY_WITHIN.toNanos();
    for (int i = 0; i < nodes.size(); i++) {
      Node node = nodes.get(i);
      List<String> answers;
      while ((answers = node.lines().stream().filter(NodeCounters::isCounters).toList()).size()
          <= seen.get(i)) {
        if (!node.process().isAlive() || System.nanoTime() > deadline) {
          throw failure(node, "did not answer for its counters");
        }
        Thread.sleep(5);
      }
      total = total.plus(NodeCounters.parse(answers.getLast()));
    }
    return total;
  }

  /** Stops every node (closes their standard input) and returns what they reported. */
  Report stop() throws IOException, InterruptedException {
    for (Node node : nodes) {
      node.process().getOutputStream().close();
    }
    NodeCounters total = NodeCounters.NONE;
    List<long[]> latencies = new ArrayList<>();
    for (Node node : nodes) {
      if (!node.process().waitFor(STOP_WITHIN.toSeconds(), TimeUnit.SECONDS)) {
        throw failure(node, "did not stop within " + STOP_WITHIN.toSeconds() + " s");
      }
      node.reader().join(Duration.ofSeconds(5)); // it takes the last lines off the pipe
      String counters =
          node.lines().stream()
              .filter(NodeCounters::isCounters)
              .reduce((first, last) -> last)
              .orElseThrow(() -> failure(node, "stopped without printing its counters"));
      total = total.plus(NodeCounters.parse(counters));
      node.lines().stream()
          .filter(E5Node::isLatencies)
          .findFirst()
          .ifPresent(l -> latencies.add(E5Node.latencies(l)));
    }
    return new Report(
        total, latencies.stream().flatMapToLong(java.util.Arrays::stream).sorted().toArray());
  }

  private static IllegalStateException failure(Node node, String what) {
    return new IllegalStateException(
        "E5 node "
            + node.id()
            + " "
            + what
            + " (exit "
            + (node.process().isAlive() ? "-" : node.process().exitValue())
            + "); its output: "
            + node.lines()
            + "; its log: "
            + node.log());
  }

  /** Kills what still runs (after a failure); a stopped cluster has nothing left to kill. */
  @Override
  public void close() {
    for (Node node : nodes) {
      if (node.process().isAlive()) {
        node.process().destroyForcibly();
      }
    }
  }
}
