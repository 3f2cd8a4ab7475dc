package io.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.batch.internal.BlockStore;
import io.sluice.core.app.Application;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.jdbc.JdbcAccess;
import io.sluice.testkit.PostgresTestDatabase;
import io.sluice.testkit.TcpProxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Several nodes on one PostgreSQL store run one instance of a batch job: each node here is an
 * application with a storage (a pool) and a node lease of its own, as a process would have. The
 * nodes join the instance the first began, claim its blocks under their leases and hand their
 * aggregators' groups over, each record in exactly one group; a node whose lease is taken from it
 * commits nothing it held under it, hands no group of it over, and rejoins under a new lease: the
 * instance ends with exact counts.
 */
@org.junit.jupiter.api.Tag("cluster") // nodes, leases that lapse, an outage: not in the fast suite
class AnInstanceRunsOnSeveralNodesTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  private static final int RECORDS = 20_000;

  private final List<AutoCloseable> open = new ArrayList<>();

  /** Released once every node joined: until then the step's records wait, so nothing ends early. */
  private final CountDownLatch go = new CountDownLatch(1);

  /** Every group a sink took, with the node whose sink took it. */
  private final List<Map.Entry<String, List<Long>>> groups =
      Collections.synchronizedList(new ArrayList<>());

  @BeforeEach
  void freshTables() throws Exception {
    DB.dropTables();
  }

  @AfterEach
  void closeNodes() throws Exception {
    go.countDown();
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
  }

  /** One node: its own storage, application and lease. */
  private SharedStoreNode node(String name) {
    return node(name, DB.config());
  }

  private SharedStoreNode node(String name, io.sluice.core.store.StorageConfig config) {
    return SharedStoreNode.open(name, config, open);
  }

  private BatchJob job(String node, int blockSize) {
    return job(node, blockSize, RECORDS);
  }

  private BatchJob job(String node, int blockSize, long records) {
    return BatchJob.builder("spread")
        .input(BatchInput.generator(records, i -> i))
        .blockSize(blockSize)
        .step(
            BatchStep.builder("wait")
                .processor(
                    Processor.of(
                        ProcessingType.BLOCKING_IO,
                        m -> {
                          go.await();
                          return m;
                        }))
                .build())
        .step(
            BatchStep.builder("group")
                .processor(Processor.of(ProcessingType.CPU_LITE, m -> m))
                .aggregator(
                    Aggregator.size(
                        250,
                        Processor.of(
                            ProcessingType.CPU_LITE,
                            m -> {
                              @SuppressWarnings("unchecked")
                              List<Long> positions = (List<Long>) m.variables().get("positions");
                              groups.add(Map.entry(node, List.copyOf(positions)));
                              return m;
                            })))
                .build())
        .build();
  }

  /**
   * Alone on the shared store, the loading node runs what it loads from memory: it reads back only
   * the blocks it kept unclaimed for other nodes (64 at most), once its input is read. It read back
   * every block it had no free place for before, which cost a one-node run a third of its speed.
   */
  @Test
  void aNodeAloneReadsBackOnlyTheBlocksItKeptForOthers() throws Exception {
    go.countDown();
    SharedStoreNode a = node("node-a");
    BatchResult result = a.engine().run(job("node-a", 100)).result().get(120, TimeUnit.SECONDS);
    assertThat(result.state()).isEqualTo(BatchState.COMPLETED);
    assertThat(result.processed()).isEqualTo(RECORDS);
    double fromMemory = blocks(a, "memory");
    double fromStore = blocks(a, "store");
    assertThat(fromMemory + fromStore).isEqualTo(RECORDS / 100);
    assertThat(fromStore).isLessThanOrEqualTo(64);
  }

  /** The blocks {@code node} ran of job spread, by where their records came {@code from}. */
  private static double blocks(SharedStoreNode node, String from) {
    return node.application()
        .meterRegistry()
        .get("sluice.batch.blocks")
        .tags("job", "spread", "from", from)
        .counter()
        .count();
  }

  @Test
  void threeNodesShareOneInstanceAndEachRecordIsInOneGroup() throws Exception {
    SharedStoreNode a = node("node-a");
    SharedStoreNode b = node("node-b");
    SharedStoreNode c = node("node-c");
    BatchEngine.Execution first = a.engine().run(job("node-a", 100));
    BlockStore store = new BlockStore(JdbcAccess.of(a.storage()), EmbeddedBatch.VALUES);
    await().atMost(Duration.ofSeconds(30)).until(() -> store.shared(first.instance()).blocks() > 0);

    BatchEngine.Execution second = b.engine().run(job("node-b", 100));
    BatchEngine.Execution third = c.engine().run(job("node-c", 100));
    assertThat(List.of(second.instance(), third.instance())).containsOnly(first.instance());
    // Every node holds blocks before any record goes through: each gets a share.
    await().atMost(Duration.ofSeconds(30)).until(() -> owners(first.instance()).size() == 3);
    go.countDown();

    List<BatchResult> results = new ArrayList<>();
    for (BatchEngine.Execution e : List.of(first, second, third)) {
      results.add(e.result().get(120, TimeUnit.SECONDS));
    }
    assertThat(results)
        .allSatisfy(
            r -> {
              assertThat(r.state()).isEqualTo(BatchState.COMPLETED);
              assertThat(r.loaded()).isEqualTo(RECORDS);
              assertThat(r.processed()).isEqualTo(RECORDS);
              assertThat(r.successful()).isEqualTo(RECORDS);
            });
    assertThat(results.getFirst().steps().values())
        .as("each step counted each record once")
        .allSatisfy(s -> assertThat(s.processed()).isEqualTo(RECORDS));
    Map<String, Long> byNode = processedByNode(first.instance());
    assertThat(byNode).containsOnlyKeys("node-a", "node-b", "node-c");
    assertThat(byNode.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(RECORDS);
    assertThat(byNode.values()).allSatisfy(n -> assertThat(n).isPositive());

    Map<Long, Integer> seen = new HashMap<>();
    Map<String, Integer> partial = new HashMap<>();
    for (Map.Entry<String, List<Long>> group : groups) {
      group.getValue().forEach(p -> seen.merge(p, 1, Integer::sum));
      if (group.getValue().size() < 250) {
        partial.merge(group.getKey(), 1, Integer::sum);
      }
    }
    assertThat(seen).hasSize(RECORDS);
    assertThat(seen.values()).as("each record in one group").containsOnly(1);
    assertThat(partial.values()).as("one partial group per node at most").allMatch(n -> n <= 1);
  }

  @Test
  void aNodeWhoseLeaseIsTakenCommitsNothingUnderItAndRejoins() throws Exception {
    SharedStoreNode a = node("node-a");
    SharedStoreNode b = node("node-b");
    BatchEngine.Execution first = a.engine().run(job("node-a", 100));
    BlockStore store = new BlockStore(JdbcAccess.of(a.storage()), EmbeddedBatch.VALUES);
    await().atMost(Duration.ofSeconds(30)).until(() -> store.shared(first.instance()).blocks() > 0);
    BatchEngine.Execution second = b.engine().run(job("node-b", 100));
    await().atMost(Duration.ofSeconds(30)).until(() -> owners(first.instance()).size() == 2);

    // As a node paused past its lease finds it: lapsed on the database's clock.
    io.sluice.jobs.spi.NodeLease taken = b.lease().lease();
    DB.execute("UPDATE sluice_job_node SET lease_expires = 0 WHERE node = 'node-b'");
    await().atMost(Duration.ofSeconds(30)).until(() -> !b.lease().holds(taken));
    go.countDown();

    // Its blocks' step commits under the old lease are refused; it rejoins under a new lease,
    // and between the two nodes every record is counted once at each step.
    BatchResult rejoined = second.result().get(120, TimeUnit.SECONDS);
    BatchResult result = first.result().get(120, TimeUnit.SECONDS);
    for (BatchResult r : List.of(result, rejoined)) {
      assertThat(r.state()).isEqualTo(BatchState.COMPLETED);
      assertThat(r.processed()).isEqualTo(RECORDS);
      assertThat(r.steps().values()).allSatisfy(s -> assertThat(s.processed()).isEqualTo(RECORDS));
    }
    Map<String, Long> byNode = processedByNode(first.instance());
    assertThat(byNode.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(RECORDS);
    assertThat(b.lease().lease().epoch()).as("node-b registered anew").isGreaterThan(taken.epoch());
    Map<Long, Integer> seen = new HashMap<>();
    groups.forEach(g -> g.getValue().forEach(p -> seen.merge(p, 1, Integer::sum)));
    assertThat(seen)
        .as("node-b's aggregator handed no group of the blocks it lost: each record once")
        .hasSize(RECORDS);
    assertThat(seen.values()).containsOnly(1);
  }

  @Test
  void nodesStartedAtTheSameInstantRunOneInstance() throws Exception {
    List<SharedStoreNode> nodes = List.of(node("node-a"), node("node-b"), node("node-c"));
    go.countDown();
    var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();
    open.add(threads::shutdownNow);
    // Rounds of three starts at once, each round a job of its own: without the store-wide lock
    // of a start, two nodes' lookups both find none and each creates an instance.
    for (int round = 0; round < 20; round++) {
      String name = "spread-" + round;
      java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(3);
      List<java.util.concurrent.Future<BatchEngine.Execution>> starts = new ArrayList<>();
      for (SharedStoreNode n : nodes) {
        starts.add(
            threads.submit(
                () -> {
                  together.await();
                  return n.engine().run(named(name, job(n.name(), 100, 1_000)));
                }));
      }
      List<BatchEngine.Execution> executions = new ArrayList<>();
      for (var start : starts) {
        executions.add(start.get(60, TimeUnit.SECONDS));
      }
      assertThat(executions.stream().map(BatchEngine.Execution::instance).distinct())
          .as("round %d: one instance for the three starts", round)
          .hasSize(1);
      for (BatchEngine.Execution e : executions) {
        BatchResult r = e.result().get(120, TimeUnit.SECONDS);
        assertThat(r.state()).isEqualTo(BatchState.COMPLETED);
        assertThat(r.processed()).isEqualTo(1_000);
      }
    }
  }

  /** {@code job} under another name. */
  private static BatchJob named(String name, BatchJob job) {
    BatchJob.Builder copy = BatchJob.builder(name).input(job.input()).blockSize(job.blockSize());
    job.steps().forEach(copy::step);
    return copy.build();
  }

  @Test
  void aNodeWithAnotherBlockSizeIsRefusedNamingIt() throws Exception {
    SharedStoreNode a = node("node-a");
    SharedStoreNode b = node("node-b");
    BatchEngine.Execution first = a.engine().run(job("node-a", 100));
    BlockStore store = new BlockStore(JdbcAccess.of(a.storage()), EmbeddedBatch.VALUES);
    await().atMost(Duration.ofSeconds(30)).until(() -> store.shared(first.instance()).blocks() > 0);

    assertThatThrownBy(() -> b.engine().run(job("node-b", 50)))
        .isInstanceOf(BatchStartRefusedException.class)
        .hasMessageContaining("cannot join instance " + first.instance())
        .hasMessageContaining("the block size is 50 here, 100 in the instance");
    go.countDown();
    assertThat(first.result().get(120, TimeUnit.SECONDS).state()).isEqualTo(BatchState.COMPLETED);
  }

  @Test
  void anOutageLongerThanTheLeasePausesEveryNodeAndTheyFinishWithNothingLost() throws Exception {
    long records = 200_000;
    go.countDown(); // the records flow from the start
    try (TcpProxy proxy = TcpProxy.to("127.0.0.1", 5432)) {
      SharedStoreNode a = node("node-a", DB.configThrough(proxy));
      SharedStoreNode b = node("node-b", DB.configThrough(proxy));
      BatchEngine.Execution first = a.engine().run(job("node-a", 100, records));
      await().atMost(Duration.ofSeconds(30)).until(() -> !owners(first.instance()).isEmpty());
      BatchEngine.Execution second = b.engine().run(job("node-b", 100, records));
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> processedByNode(first.instance()).size() == 2);

      proxy.cut();
      // Past the lease on both nodes' clocks: each lets go of what it held and waits.
      await().atMost(Duration.ofSeconds(30)).until(() -> !a.lease().held() && !b.lease().held());
      assertThat(first.result()).isNotDone();
      assertThat(second.result()).isNotDone();
      proxy.restore();

      for (BatchEngine.Execution e : List.of(first, second)) {
        BatchResult r = e.result().get(180, TimeUnit.SECONDS);
        assertThat(r.state()).isEqualTo(BatchState.COMPLETED);
        assertThat(r.loaded()).isEqualTo(records);
        assertThat(r.processed()).isEqualTo(records);
        assertThat(r.steps().values())
            .as("each step counted each record once, through the outage")
            .allSatisfy(st -> assertThat(st.processed()).isEqualTo(records));
      }
      Map<Long, Integer> seen = new HashMap<>();
      groups.forEach(g -> g.getValue().forEach(p -> seen.merge(p, 1, Integer::sum)));
      assertThat(seen).as("every record reached a sink").hasSize((int) records);
    }
  }

  @Test
  void aLauncherJoinsTheInstancesAnotherNodesFlowStarted() throws Exception {
    SharedStoreNode a = node("node-a");
    SharedStoreNode b = node("node-b");
    BatchJob fromMessage =
        BatchJob.builder("spread")
            .input(BatchInput.message())
            .step(
                BatchStep.builder("wait")
                    .processor(
                        Processor.of(
                            ProcessingType.BLOCKING_IO,
                            m -> {
                              go.await();
                              return m;
                            }))
                    .build())
            .build();
    BatchLauncher first = launcher(a, fromMessage);
    BatchLauncher second = launcher(b, fromMessage);
    second.joinOthers(Duration.ofMillis(100));
    List<Object> records = new ArrayList<>();
    for (long i = 0; i < RECORDS; i++) {
      records.add(i);
    }
    BatchEngine.Execution started =
        first.start("spread", null, io.sluice.core.Message.of(records), null);
    // The records are stored before start returns; node-b sees blocks waiting and joins.
    await().atMost(Duration.ofSeconds(30)).until(() -> owners(started.instance()).size() == 2);
    go.countDown();

    BatchResult result = started.result().get(120, TimeUnit.SECONDS);
    assertThat(result.state()).isEqualTo(BatchState.COMPLETED);
    assertThat(result.processed()).isEqualTo(RECORDS);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> processedByNode(started.instance()).size() == 2);
    Map<String, Long> byNode = processedByNode(started.instance());
    assertThat(byNode.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(RECORDS);
    assertThat(byNode.values()).allSatisfy(n -> assertThat(n).isPositive());
    assertThat(first.stopAll(Duration.ofSeconds(30))).isTrue();
    assertThat(second.stopAll(Duration.ofSeconds(30))).isTrue();
  }

  private BatchLauncher launcher(SharedStoreNode node, BatchJob job) {
    BatchLauncher launcher = new BatchLauncher(List.of(job));
    Application application =
        Application.builder().storage(node.storage()).storedValues(EmbeddedBatch.VALUES).build();
    open.add(application);
    launcher.bind(application, node::lease, io.sluice.jobs.JobExecutorConfig::defaults);
    return launcher;
  }

  private Map<String, Long> owners(long instance) throws Exception {
    Map<String, Long> owners = new ConcurrentHashMap<>();
    try (Connection c = connection();
        ResultSet rs =
            c.createStatement()
                .executeQuery(
                    "SELECT owner, COUNT(*) FROM sluice_batch_block WHERE instance_id = "
                        + instance
                        + " AND owner IS NOT NULL GROUP BY owner")) {
      while (rs.next()) {
        owners.put(rs.getString(1), rs.getLong(2));
      }
    }
    return owners;
  }

  private static Map<String, Long> processedByNode(long instance) throws Exception {
    return SharedStoreNode.processedByNode(DB, instance);
  }

  private Connection connection() throws Exception {
    return DB.connect();
  }
}
