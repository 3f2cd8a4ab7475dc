package io.sluice.bench.batch;

import static io.sluice.bench.RunFiles.appendingCsv;
import static io.sluice.bench.RunFiles.loadAverage;

import io.sluice.bench.CommandLineOptions;
import io.sluice.bench.CpuTime;
import io.sluice.bench.jobs.ClusterCpu;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Batch across nodes (issue 22): E1's io job ({@code nodes-io.yaml}: a generator of {@code
 * --records} records, one step calling the service's {@code GET /latency} through {@code
 * http-request}, blocks of {@code --block-size}, {@code auto}) run by 1, 2 and 3 {@code sluice
 * batch run} processes sharing one PostgreSQL store, beside one process on the embedded SQLite
 * store ({@code nodes-io-sqlite.yaml}); or, with {@code --job csv}, E1's CSV job ({@code
 * nodes-csv.yaml}: {@code --records} orders of {@link CsvOrders} read from a file, transformed by a
 * {@code set-payload} and written to a CSV output, which one node writes for all; each run's output
 * is read back line by line against the orders' expected lines). A scenario benchmark, not JMH. Run
 * from the repository root after {@code ./mvnw -q -pl sluice-cli,sluice-bench -am package
 * -DskipTests}:
 *
 * <pre>
 * sluice-bench/run-nodes.sh [--job io] [--nodes 1,2,3] [--records 100000] [--runs 3] [--cold-round true]
 *     [--sqlite true] [--latency-ms 5] [--block-size 100] [--max-connections 256]
 *     [--database test] [--schema sluice_bench_nodes] [--cli-jar sluice-cli/target/sluice-cli.jar]
 *     [--node-jvm-options ''] [--out nodes.csv]
 * </pre>
 *
 * <p>The nodes are the CLI's own JVMs ({@link BatchRunProcess}), each with its {@code
 * sluice.jobs.nodeId} (node-1, node-2 ...). Each run: a fresh schema, migrated by this driver; node
 * 1 starts; once the instance exists (polled every 20 ms) the others start, one after the other at
 * once; the wall time is from node 1's start to the last exit. Every node must exit 0, the schema
 * must hold one instance, completed, with every record processed (a node that came after the
 * instance ended would start a second one: such a run fails rather than count). The service is E1's
 * ({@link ServiceProcess}: bare Netty in a JVM of its own, its delays timers on the event loop),
 * one for the whole benchmark; its calls and the most it had in flight at once are read.
 *
 * <p>What the database pays, per block: commits ({@code xact_commit} of the database, other
 * sessions' included: where other sessions use it, give a database of its own with {@code
 * --database}, made when missing), statements when {@code pg_stat_statements} can be read (it says
 * why not otherwise), rows written to the run's tables ({@code pg_stat_user_tables} of the schema:
 * exact), and PostgreSQL's CPU: E5's accounting ({@link ClusterCpu}, from {@code /proc}) with the
 * backends and nodes that ended during the run counted from their parents' counts of ended children
 * (the nodes exactly; every PostgreSQL process, the server's background work and other sessions
 * included), the nodes' own backends apart (read every 200 ms, by application name). The nodes'
 * CPU, the service's, this driver's and the share of the machine the rest took are read the same
 * way.
 *
 * <p>Rounds: round 0 runs every configuration once, cold (the service's JVM fresh, the database's
 * and the system's caches cold): recorded as round 0, not counted in the medians. Rounds 1 to
 * {@code --runs} follow, the configurations in reverse order every other round (sqlite, 1, 2, 3
 * then 3, 2, 1, sqlite). Each round's rows, with the speed-up against the same round's one-node
 * run, go to {@code --out} as the round ends; the medians are printed at the end as a table.
 */
public final class NodesBenchmark {

  private static final long POLL_MILLIS = 20;
  private static final long SAMPLE_MILLIS = 200;

  private final NodesStore store;
  private final long records;
  private final int blockSize;
  private final int maxConnections;
  private final double latencyMillis;
  private final Path cliJar;
  private final String jvmOptions;
  private final Path work;
  private final ServiceProcess service;
  private final String job;
  private final Path input;
  private final int cores = Runtime.getRuntime().availableProcessors();
  private String statementsNote;

  private NodesBenchmark(
      NodesStore store,
      long records,
      int blockSize,
      int maxConnections,
      double latencyMillis,
      Path cliJar,
      String jvmOptions,
      Path work,
      ServiceProcess service,
      String job) {
    this.store = store;
    this.records = records;
    this.blockSize = blockSize;
    this.maxConnections = maxConnections;
    this.latencyMillis = latencyMillis;
    this.cliJar = cliJar;
    this.jvmOptions = jvmOptions;
    this.work = work;
    this.service = service;
    this.job = job;
    this.input = work.resolve("orders.csv");
  }

  /** Runs the rounds the options ask for and writes the CSV. */
  public static void main(String[] args) throws Exception {
    CommandLineOptions options = CommandLineOptions.parse(args);
    List<Integer> nodeCounts =
        options.list("nodes", "1,2,3").stream().map(Integer::parseInt).toList();
    long records = Long.parseLong(options.string("records", "100000"));
    int runs = options.integer("runs", 3);
    boolean coldRound = Boolean.parseBoolean(options.string("cold-round", "true"));
    boolean sqlite = Boolean.parseBoolean(options.string("sqlite", "true"));
    double latencyMillis = options.decimal("latency-ms", 5);
    int blockSize = options.integer("block-size", 100);
    int maxConnections = options.integer("max-connections", 256);
    NodesStore store =
        new NodesStore(
            options.string("database", "test"), options.string("schema", "sluice_bench_nodes"));
    Path cliJar = Path.of(options.string("cli-jar", "sluice-cli/target/sluice-cli.jar"));
    String jvmOptions = options.string("node-jvm-options", "");
    String job = options.string("job", "io");
    if (!job.equals("io") && !job.equals("csv")) {
      throw new IllegalArgumentException("--job must be io or csv, not " + job);
    }
    Path out = Path.of(options.string("out", "nodes.csv"));
    options.requireAllRead();
    if (!Files.isRegularFile(cliJar)) {
      throw new IllegalArgumentException(
          "no CLI jar at "
              + cliJar.toAbsolutePath()
              + ": build it (./mvnw -q -pl sluice-cli,sluice-bench -am package -DskipTests) or"
              + " give --cli-jar");
    }
    if (!nodeCounts.contains(1)) {
      throw new IllegalArgumentException("--nodes must hold 1: the speed-ups are against it");
    }

    List<String> configs = new ArrayList<>();
    if (sqlite) {
      configs.add("sqlite");
    }
    nodeCounts.forEach(n -> configs.add(Integer.toString(n)));
    Path work = Files.createTempDirectory("sluice-bench-nodes-");
    System.out.println(
        "Batch across nodes: "
            + String.join(" ", args)
            + "; load average "
            + loadAverage()
            + "; node logs and configurations in "
            + work);
    System.out.printf(
        Locale.ROOT,
        "%,d records, %s, blocks of %d (%,d blocks); store %s schema %s; %d cores%n",
        records,
        job.equals("io")
            ? "each a call of " + latencyMillis + " ms"
            : "orders from a file, transformed, to a CSV output",
        blockSize,
        (records + blockSize - 1) / blockSize,
        store.database(),
        store.schema(),
        Runtime.getRuntime().availableProcessors());
    System.out.println(BatchRunProcess.describeArchive(cliJar));
    Map<String, List<NodesRun>> all = new LinkedHashMap<>();
    Map<String, List<Double>> speedUps = new LinkedHashMap<>();
    Map<String, List<Double>> vsSqlite = new LinkedHashMap<>();
    Map<String, NodesRun> cold = new LinkedHashMap<>();
    try (ServiceProcess service = ServiceProcess.start(latencyMillis, 20);
        PrintStream csv = appendingCsv(out, NodesRun.HEADER)) {
      NodesBenchmark bench =
          new NodesBenchmark(
              store,
              records,
              blockSize,
              maxConnections,
              latencyMillis,
              cliJar,
              jvmOptions,
              work,
              service,
              job);
      bench.writeConfigs();
      if (job.equals("csv")) {
        CsvOrders.write(bench.input, records);
      }
      store.ensureExists();
      try (Connection stats = store.stats()) {
        bench.statementsNote = store.whyNoStatements(stats);
      }
      if (bench.statementsNote != null) {
        System.out.println(bench.statementsNote);
      }
      for (int round = coldRound ? 0 : 1; round <= runs; round++) {
        List<String> order = new ArrayList<>(configs);
        if (round % 2 == 0 && round > 0) {
          Collections.reverse(order);
        }
        long roundStart = System.nanoTime();
        Map<String, NodesRun> ofRound = new LinkedHashMap<>();
        for (String config : order) {
          NodesRun run =
              config.equals("sqlite")
                  ? bench.sqliteRun(round)
                  : bench.nodesRun(round, Integer.parseInt(config));
          System.out.println(run.summary());
          ofRound.put(config, run);
        }
        NodesRun oneNode = ofRound.get("1");
        NodesRun sqliteRun = ofRound.get("sqlite");
        for (String config : configs) {
          NodesRun run = ofRound.get(config);
          csv.println(run.csv(oneNode, sqliteRun));
          if (run.cold()) {
            cold.put(run.key(), run);
            continue;
          }
          all.computeIfAbsent(run.key(), k -> new ArrayList<>()).add(run);
          if (!config.equals("sqlite")) {
            speedUps
                .computeIfAbsent(run.key(), k -> new ArrayList<>())
                .add(oneNode.wallSeconds() / run.wallSeconds());
            if (sqliteRun != null) {
              vsSqlite
                  .computeIfAbsent(run.key(), k -> new ArrayList<>())
                  .add(run.recordsPerSecond() / sqliteRun.recordsPerSecond());
            }
          }
        }
        csv.flush();
        System.out.printf(
            Locale.ROOT,
            "round %d%s took %.0f s; load average %s%n",
            round,
            round == 0 ? " (cold)" : "",
            (System.nanoTime() - roundStart) / 1e9,
            loadAverage());
      }
    }
    NodesMedians.print(all, speedUps, vsSqlite, cold);
    System.out.println("done; load average " + loadAverage() + "; every run in " + out);
  }

  /** Writes the job's two configurations (PostgreSQL, SQLite) where the nodes read them. */
  private void writeConfigs() throws IOException {
    for (String name : List.of(config(false), config(true))) {
      try (InputStream in = NodesBenchmark.class.getResourceAsStream(name)) {
        Files.copy(in, work.resolve(name));
      }
    }
  }

  /** The job's configuration: on the embedded store when {@code sqlite}, else the shared one. */
  private String config(boolean sqlite) {
    return "nodes-" + job + (sqlite ? "-sqlite" : "") + ".yaml";
  }

  /**
   * The placeholders of a run's output ({@code OUTPUT}: one file per run, every node of the run
   * naming the same) added to {@code own}; none for the io job.
   */
  private Map<String, String> withOutput(Map<String, String> own, Path output) {
    Map<String, String> all = new LinkedHashMap<>(own);
    if (job.equals("csv")) {
      all.put("OUTPUT", output.toString());
    }
    return all;
  }

  /** For the CSV job: the output, read back line by line against each order's expected line. */
  private void verifyOutput(Path output) throws IOException {
    if (job.equals("csv")) {
      CsvOrders.verify(output, records);
    }
  }

  /** The placeholders' values every process of a run gets. */
  private Map<String, String> properties() {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("RECORDS", Long.toString(records));
    properties.put("BLOCK_SIZE", Integer.toString(blockSize));
    properties.put("SERVICE_PORT", Integer.toString(service.port()));
    properties.put("MAX_CONNECTIONS", Integer.toString(maxConnections));
    properties.put("INPUT", input.toString());
    return properties;
  }

  /** How long a run may take: 4 calls at once at least, and two minutes for the rest. */
  private long timeoutSeconds() {
    return 120 + Math.round(records * latencyMillis / 1000 / 4);
  }

  /** One run on {@code count} node processes sharing the PostgreSQL store. */
  private NodesRun nodesRun(int round, int count) throws Exception {
    store.freshSchema();
    Path logs = work.resolve("round-" + round + "-" + count + "-nodes");
    Path output = logs.resolve("out.csv");
    List<BatchRunProcess> nodes = new ArrayList<>();
    try (Connection stats = store.stats();
        Connection c = store.connect()) {
      NodesStore.Rows rowsBefore = store.rows(c);
      service.inFlight(); // the peak counts from here
      ServiceProcess.Counts callsBefore = service.counts();
      long serviceCpu = CpuTime.ofProcess(service.pid());
      long commits = store.commits(stats);
      long rollbacks = store.rollbacks(stats);
      long statements = store.statements(stats);
      ClusterCpu start = ClusterCpu.now(stats, NodesStore.APPLICATION, List.of());
      long startRead = System.nanoTime();
      try {
        nodes.add(
            node("node-1", config(false), withOutput(Map.of("NODE_ID", "node-1"), output), logs));
        long t0 = nodes.getFirst().startedNanos();
        int polls = 0;
        while (true) {
          polls++;
          if (NodesStore.instances(c) > 0) {
            break;
          }
          if (!nodes.getFirst().isAlive()) {
            throw nodes.getFirst().failure("ended before the instance existed");
          }
          if (System.nanoTime() - t0 > timeoutSeconds() * 1_000_000_000L) {
            throw nodes.getFirst().failure("made no instance within " + timeoutSeconds() + " s");
          }
          Thread.sleep(POLL_MILLIS);
        }
        for (int i = 2; i <= count; i++) {
          String id = "node-" + i;
          nodes.add(node(id, config(false), withOutput(Map.of("NODE_ID", id), output), logs));
        }
        Sampled sampled = sampleUntilEnded(nodes, stats, start, t0);
        ClusterCpu end = sampled.cpu();
        long endRead = System.nanoTime();
        long peak = Math.max(sampled.inFlightPeak(), service.inFlight().peak());
        ServiceProcess.Counts calls = service.counts().since(callsBefore);
        double serviceSeconds = (CpuTime.ofProcess(service.pid()) - serviceCpu) / 1e9;
        NodesStore.awaitBackendsGone(stats);
        long commitsAfter = store.commits(stats);
        long rollbacksAfter = store.rollbacks(stats);
        long statementsAfter = store.statements(stats);
        NodesStore.Rows rows = store.rows(c).since(rowsBefore);
        NodesStore.Instance instance = NodesStore.instance(c);
        List<NodesStore.Share> shares = NodesStore.shares(c);
        check(instance, nodes);
        verifyOutput(output);
        // The driver's polls are one statement and one commit each in the benchmark's database;
        // its other readings there came before the first and after the last reading of the counts.
        NodesRun.Db db =
            new NodesRun.Db(
                commitsAfter - commits - polls,
                rollbacksAfter - rollbacks,
                statements < 0 || statementsAfter < 0 ? -1 : statementsAfter - statements - polls,
                rows);
        List<NodesRun.Node> results = new ArrayList<>();
        for (BatchRunProcess node : nodes) {
          NodesStore.Share share =
              shares.stream()
                  .filter(s -> s.node().equals(node.name()))
                  .findFirst()
                  .orElse(new NodesStore.Share(node.name(), 0, 0, 0));
          results.add(
              new NodesRun.Node(
                  node.name(),
                  (node.startedNanos() - t0) / 1_000_000,
                  (node.endedNanos() - t0) / 1_000_000,
                  node.await(1),
                  node.cpuNanos() / 1e9,
                  share.processed(),
                  share.blocks()));
        }
        long lastEnd = nodes.stream().mapToLong(BatchRunProcess::endedNanos).max().orElseThrow();
        return new NodesRun(
            round,
            "postgresql",
            records,
            blockSize,
            (lastEnd - t0) / 1e9,
            instance.elapsedMs() / 1e3,
            results,
            db,
            cpu(start, end, serviceSeconds, (endRead - startRead) / 1e9),
            calls.latencyCalls(),
            peak,
            loadAverage().split(" ")[0],
            Instant.now());
      } finally {
        nodes.forEach(BatchRunProcess::kill);
      }
    }
  }

  /** One run of one process on a fresh embedded SQLite store: the baseline. */
  private NodesRun sqliteRun(int round) throws Exception {
    Path dataDir = work.resolve("sqlite-round-" + round);
    Path logs = work.resolve("round-" + round + "-sqlite");
    service.inFlight();
    ServiceProcess.Counts callsBefore = service.counts();
    long serviceCpu = CpuTime.ofProcess(service.pid());
    long machine = CpuTime.ofMachine();
    long driver = CpuTime.ofThisProcess();
    long children = CpuTime.ofEndedChildren();
    long postgres =
        CpuTime.ofProcessesNamed("postgres") + CpuTime.ofEndedChildrenOfProcessesNamed("postgres");
    Path output = logs.resolve("out.csv");
    BatchRunProcess node =
        node(
            "sqlite",
            config(true),
            withOutput(Map.of("DATA_DIR", dataDir.toString()), output),
            logs);
    long peak = 0;
    try {
      while (node.isAlive()) {
        node.sampleCpu();
        peak = Math.max(peak, service.inFlight().peak());
        if (System.nanoTime() - node.startedNanos() > timeoutSeconds() * 1_000_000_000L) {
          throw node.failure("did not end within " + timeoutSeconds() + " s");
        }
        Thread.sleep(SAMPLE_MILLIS);
      }
      int exit = node.await(10);
      double interval = (System.nanoTime() - node.startedNanos()) / 1e9;
      peak = Math.max(peak, service.inFlight().peak());
      ServiceProcess.Counts calls = service.counts().since(callsBefore);
      double serviceSeconds = (CpuTime.ofProcess(service.pid()) - serviceCpu) / 1e9;
      double nodeSeconds = (CpuTime.ofEndedChildren() - children) / 1e9;
      double postgresSeconds =
          (CpuTime.ofProcessesNamed("postgres")
                  + CpuTime.ofEndedChildrenOfProcessesNamed("postgres")
                  - postgres)
              / 1e9;
      double driverSeconds = (CpuTime.ofThisProcess() - driver) / 1e9;
      double busy = (CpuTime.ofMachine() - machine) / 1e9;
      NodesStore.Instance instance;
      try (Connection c =
          DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("sluice.db"))) {
        instance = NodesStore.instance(c);
      }
      check(instance, List.of(node));
      verifyOutput(output);
      NodesRun.Cpu cpu =
          new NodesRun.Cpu(
              postgresSeconds,
              0,
              nodeSeconds,
              serviceSeconds,
              driverSeconds,
              100 * busy / (interval * cores),
              100
                  * Math.max(
                      0, busy - nodeSeconds - serviceSeconds - driverSeconds - postgresSeconds)
                  / (interval * cores));
      return new NodesRun(
          round,
          "sqlite",
          records,
          blockSize,
          (node.endedNanos() - node.startedNanos()) / 1e9,
          instance.elapsedMs() / 1e3,
          List.of(
              new NodesRun.Node(
                  "sqlite",
                  0,
                  (node.endedNanos() - node.startedNanos()) / 1_000_000,
                  exit,
                  node.cpuNanos() / 1e9,
                  instance.processed(),
                  instance.processed() / blockSize)),
          NodesRun.Db.NONE,
          cpu,
          calls.latencyCalls(),
          peak,
          loadAverage().split(" ")[0],
          Instant.now());
    } finally {
      node.kill();
    }
  }

  private BatchRunProcess node(String id, String config, Map<String, String> own, Path logs)
      throws IOException {
    Map<String, String> properties = properties();
    if (config.equals(config(false))) {
      properties.put("STORE_URL", store.nodeUrl());
      properties.put("STORE_USER", NodesStore.USER);
    }
    properties.putAll(own);
    return BatchRunProcess.start(
        id, cliJar, work.resolve(config), properties, jvmOptions, logs.resolve(id + ".log"));
  }

  /** The last CPU reading of a run and the most calls the service had in flight meanwhile. */
  private record Sampled(ClusterCpu cpu, long inFlightPeak) {}

  /**
   * Waits for every node to end, reading their CPU, the database's and the service's in-flight
   * calls every {@value #SAMPLE_MILLIS} ms; the last reading is taken once the last has ended.
   */
  private Sampled sampleUntilEnded(
      List<BatchRunProcess> nodes, Connection stats, ClusterCpu start, long t0) throws Exception {
    ClusterCpu last = start;
    long peak = 0;
    long nextSample = 0;
    while (nodes.stream().anyMatch(BatchRunProcess::isAlive)) {
      if (System.nanoTime() >= nextSample) {
        List<Long> alive = new ArrayList<>();
        for (BatchRunProcess node : nodes) {
          if (node.isAlive()) {
            node.sampleCpu();
            alive.add(node.pid());
          }
        }
        last = ClusterCpu.now(stats, NodesStore.APPLICATION, alive).keepingClosedBackendsOf(last);
        peak = Math.max(peak, service.inFlight().peak());
        nextSample = System.nanoTime() + SAMPLE_MILLIS * 1_000_000;
      }
      for (BatchRunProcess node : nodes) {
        if (!node.isAlive() && node.await(1) != 0) {
          throw node.failure("failed");
        }
      }
      if (System.nanoTime() - t0 > timeoutSeconds() * 1_000_000_000L) {
        throw nodes.getFirst().failure("(with the others) did not end within " + timeoutSeconds());
      }
      Thread.sleep(POLL_MILLIS);
    }
    for (BatchRunProcess node : nodes) {
      node.await(1);
    }
    ClusterCpu end =
        ClusterCpu.now(stats, NodesStore.APPLICATION, List.of()).keepingClosedBackendsOf(last);
    return new Sampled(end, peak);
  }

  /** The run's CPU seconds from two readings {@code interval} seconds apart. */
  private NodesRun.Cpu cpu(ClusterCpu start, ClusterCpu end, double service, double interval) {
    double postgres =
        (end.postgres() + end.postgresEnded() - start.postgres() - start.postgresEnded()) / 1e9;
    double nodes =
        (end.nodes() + end.endedChildren() - start.nodes() - start.endedChildren()) / 1e9;
    double driver = (end.driver() - start.driver()) / 1e9;
    double busy = (end.machine() - start.machine()) / 1e9;
    return new NodesRun.Cpu(
        postgres,
        end.backendsSince(start) / 1e9,
        nodes,
        service,
        driver,
        100 * busy / (interval * cores),
        100 * Math.max(0, busy - postgres - nodes - service - driver) / (interval * cores));
  }

  /** Fails unless the store holds one instance, completed, every record through. */
  private void check(NodesStore.Instance instance, List<BatchRunProcess> nodes) {
    if (instance.count() != 1 || !instance.completed() || instance.processed() != records) {
      throw nodes
          .getFirst()
          .failure(
              "left "
                  + instance.count()
                  + " instance(s), the first in state "
                  + instance.state()
                  + " with "
                  + instance.processed()
                  + " of "
                  + records
                  + " records processed (one completed instance with every record was expected;"
                  + " a node that starts after the instance ended starts a second one: give more"
                  + " --records)");
    }
  }
}
