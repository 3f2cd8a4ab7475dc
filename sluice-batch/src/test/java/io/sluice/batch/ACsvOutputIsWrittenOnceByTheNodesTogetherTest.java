package io.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.testkit.PostgresTestDatabase;
import io.sluice.testkit.TcpProxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job with a CSV output on a shared PostgreSQL store runs on several nodes (remote chunking):
 * every node takes blocks through the steps and leaves their lines in the store, one node writes
 * the file, each successful record's line once, in input order. When the writing node's lease is
 * taken from it mid-run, it writes nothing more and lets go of the file, and another node writes on
 * from the bytes committed: still each line once, in order.
 */
@Tag("cluster") // nodes and leases that lapse: not in the fast suite
class ACsvOutputIsWrittenOnceByTheNodesTogetherTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  private static final int RECORDS = 20_000;

  /** Every this-many-th record fails its step: it is counted failed and has no line. */
  private static final int FAILING = 997;

  @TempDir Path dir;

  private final List<AutoCloseable> open = new ArrayList<>();

  /** Released once every node joined: until then records wait. */
  private final CountDownLatch go = new CountDownLatch(1);

  /**
   * The first record of the second half waits for this too: the file cannot go past its block
   * meanwhile. (One record only: records waiting in a step hold places of its concurrency limit.)
   */
  private final CountDownLatch secondHalf = new CountDownLatch(1);

  private Path out;

  @BeforeEach
  void freshTables() throws Exception {
    DB.dropTables();
    out = dir.resolve("out/numbers.csv");
  }

  @AfterEach
  void closeNodes() throws Exception {
    go.countDown();
    secondHalf.countDown();
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
  }

  private SharedStoreNode node(String name) {
    return SharedStoreNode.open(name, DB.config(), open);
  }

  private BatchJob job() {
    return job(RECORDS);
  }

  private BatchJob job(long records) {
    return BatchJob.builder("numbers")
        .input(BatchInput.generator(records, i -> i + 1))
        .output(BatchOutput.csv(out, List.of("n")))
        .blockSize(100)
        .maxFailedRecords(BatchJob.UNLIMITED)
        .step(
            BatchStep.builder("wait")
                .processor(
                    Processor.of(
                        ProcessingType.BLOCKING_IO,
                        m -> {
                          go.await();
                          long n = ((Number) m.payload()).longValue();
                          if (n == RECORDS / 2 + 1) {
                            secondHalf.await();
                          }
                          if (n % FAILING == 0) {
                            throw new IllegalStateException("record " + n + " fails");
                          }
                          return m;
                        }))
                .build())
        .step(
            BatchStep.builder("double")
                .processor(Processor.of(ProcessingType.CPU_LITE, m -> m))
                .build())
        .build();
  }

  @Test
  void threeNodesWriteOneFileEachLineOnceInInputOrder() throws Exception {
    secondHalf.countDown();
    SharedStoreNode a = node("node-a");
    SharedStoreNode b = node("node-b");
    SharedStoreNode c = node("node-c");
    BatchEngine.Execution first = a.engine().run(job());
    await().atMost(Duration.ofSeconds(30)).until(() -> blocks(first.instance()) > 0);
    BatchEngine.Execution second = b.engine().run(job());
    BatchEngine.Execution third = c.engine().run(job());
    assertThat(List.of(second.instance(), third.instance())).containsOnly(first.instance());
    await().atMost(Duration.ofSeconds(30)).until(() -> owners(first.instance()) == 3);
    go.countDown();

    for (BatchEngine.Execution e : List.of(first, second, third)) {
      BatchResult r = e.result().get(120, TimeUnit.SECONDS);
      assertThat(r.state()).as("result %s", r).isEqualTo(BatchState.COMPLETED);
      assertThat(r.processed()).isEqualTo(RECORDS);
      assertThat(r.failed()).isEqualTo(RECORDS / FAILING);
    }
    assertThat(Files.readAllLines(out, StandardCharsets.UTF_8)).isEqualTo(expectedLines());
    Map<String, Long> byNode = processedByNode(first.instance());
    assertThat(byNode).containsOnlyKeys("node-a", "node-b", "node-c");
    assertThat(byNode.values()).allSatisfy(n -> assertThat(n).isPositive());
    assertThat(byNode.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(RECORDS);
    assertThat(queryLong("SELECT COUNT(*) FROM sluice_batch_block")).isZero();
  }

  @Test
  void whenTheWritingNodeLosesItsLeaseAnotherWritesOnFromTheCommittedBytes() throws Exception {
    SharedStoreNode a = node("node-a");
    SharedStoreNode b = node("node-b");
    BatchEngine.Execution first = a.engine().run(job());
    await().atMost(Duration.ofSeconds(30)).until(() -> writer(first.instance()) != null);
    assertThat(writer(first.instance())).startsWith("node-a#");
    BatchEngine.Execution second = b.engine().run(job());
    await().atMost(Duration.ofSeconds(30)).until(() -> owners(first.instance()) == 2);
    go.countDown();
    // node-a writes the lines of the first half; the second half's first block waits.
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> outputBytes(first.instance()) > RECORDS / 4 * 5L);

    // As a node paused past its lease finds it: lapsed on the database's clock.
    io.sluice.jobs.spi.NodeLease taken = a.lease().lease();
    DB.execute("UPDATE sluice_job_node SET lease_expires = 0 WHERE node = 'node-a'");
    await().atMost(Duration.ofSeconds(30)).until(() -> !a.lease().holds(taken));
    // The writing goes to a node under a valid lease: node-b, or node-a registered anew.
    String lost = taken.node() + "#" + taken.epoch();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> !lost.equals(writer(first.instance())) && writer(first.instance()) != null);
    secondHalf.countDown();

    for (BatchEngine.Execution e : List.of(first, second)) {
      BatchResult r = e.result().get(120, TimeUnit.SECONDS);
      assertThat(r.state()).as("result %s", r).isEqualTo(BatchState.COMPLETED);
      assertThat(r.processed()).isEqualTo(RECORDS);
      assertThat(r.steps().get("wait").processed()).isEqualTo(RECORDS);
      assertThat(r.steps().get("double").processed()).isEqualTo(RECORDS - RECORDS / FAILING);
    }
    assertThat(Files.readAllLines(out, StandardCharsets.UTF_8)).isEqualTo(expectedLines());
    assertThat(Files.size(out)).isEqualTo(outputBytes(first.instance()));
  }

  /**
   * A stop while other nodes' lines wait in the store for the writer leaves them there; a node that
   * resumes the instance alone writes them, then the rest: each line once, in order.
   */
  @Test
  void aStopLeavesTheWaitingLinesInTheStoreAndAResumeWritesThem() throws Exception {
    SharedStoreNode a = node("node-a");
    SharedStoreNode b = node("node-b");
    BatchEngine.Execution first = a.engine().run(job());
    await().atMost(Duration.ofSeconds(30)).until(() -> writer(first.instance()) != null);
    BatchEngine.Execution second = b.engine().run(job());
    await().atMost(Duration.ofSeconds(30)).until(() -> owners(first.instance()) == 2);
    go.countDown();
    // The second half's first block holds the file back: node-b's later blocks leave their lines.
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                queryLong(
                        "SELECT COUNT(*) FROM sluice_batch_block WHERE lines IS NOT NULL AND"
                            + " owner = 'node-b'")
                    >= 5);
    // Both nodes stop dispatching before the held record goes on: its block ends its first step
    // and goes no further, so the file cannot pass it before the stop.
    assertThat(a.engine().stop(first.instance())).isTrue();
    assertThat(b.engine().stop(first.instance())).isTrue();
    secondHalf.countDown();
    for (BatchEngine.Execution e : List.of(first, second)) {
      assertThat(e.result().get(120, TimeUnit.SECONDS).state()).isEqualTo(BatchState.STOPPED);
    }
    long waiting = queryLong("SELECT COUNT(*) FROM sluice_batch_block WHERE lines IS NOT NULL");
    assertThat(waiting).as("lines left waiting by the stop").isPositive();
    // The stopped nodes live on (their leases too), as sluice run nodes do: they let go of the
    // loading and the writing, or no other node could take them when the instance is resumed.
    assertThat(
            queryLong(
                "SELECT COUNT(*) FROM sluice_batch_instance WHERE loader IS NULL AND writer IS"
                    + " NULL"))
        .isOne();

    SharedStoreNode c = node("node-c");
    BatchResult resumed = c.engine().run(job()).result().get(120, TimeUnit.SECONDS);
    assertThat(resumed.state()).as("result %s", resumed).isEqualTo(BatchState.COMPLETED);
    assertThat(resumed.processed()).isEqualTo(RECORDS);
    assertThat(resumed.steps().get("wait").processed()).isEqualTo(RECORDS);
    assertThat(Files.readAllLines(out, StandardCharsets.UTF_8)).isEqualTo(expectedLines());
    assertThat(Files.size(out)).isEqualTo(outputBytes(first.instance()));
  }

  /**
   * An outage longer than the lease, the output's writes and the nodes' lines cut off mid-way (some
   * commits' answers lost): every node pauses, and the file ends with each line once.
   */
  @Test
  void anOutageLongerThanTheLeaseLeavesEachLineOnce() throws Exception {
    long records = 200_000;
    go.countDown();
    secondHalf.countDown();
    try (TcpProxy proxy = TcpProxy.to("127.0.0.1", 5432)) {
      SharedStoreNode a = SharedStoreNode.open("node-a", DB.configThrough(proxy), open);
      SharedStoreNode b = SharedStoreNode.open("node-b", DB.configThrough(proxy), open);
      BatchEngine.Execution first = a.engine().run(job(records));
      await().atMost(Duration.ofSeconds(30)).until(() -> owners(first.instance()) > 0);
      BatchEngine.Execution second = b.engine().run(job(records));
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> processedByNode(first.instance()).size() == 2);

      proxy.cut();
      await().atMost(Duration.ofSeconds(30)).until(() -> !a.lease().held() && !b.lease().held());
      assertThat(first.result()).isNotDone();
      proxy.restore();

      for (BatchEngine.Execution e : List.of(first, second)) {
        BatchResult r = e.result().get(180, TimeUnit.SECONDS);
        assertThat(r.state()).as("result %s", r).isEqualTo(BatchState.COMPLETED);
        assertThat(r.processed()).isEqualTo(records);
      }
      assertThat(Files.readAllLines(out, StandardCharsets.UTF_8)).isEqualTo(expectedLines(records));
      assertThat(Files.size(out)).isEqualTo(outputBytes(first.instance()));
    }
  }

  private static List<String> expectedLines() {
    return expectedLines(RECORDS);
  }

  private static List<String> expectedLines(long records) {
    List<String> lines = new ArrayList<>();
    lines.add("n");
    for (long n = 1; n <= records; n++) {
      if (n % FAILING != 0) {
        lines.add(Long.toString(n));
      }
    }
    return lines;
  }

  private static long blocks(long instance) throws Exception {
    return queryLong("SELECT COUNT(*) FROM sluice_batch_block WHERE instance_id = " + instance);
  }

  private static long owners(long instance) throws Exception {
    return queryLong(
        "SELECT COUNT(DISTINCT owner) FROM sluice_batch_block WHERE instance_id = " + instance);
  }

  private static long outputBytes(long instance) throws Exception {
    return queryLong(
        "SELECT COALESCE(output_bytes, 0) FROM sluice_batch_instance WHERE id = " + instance);
  }

  private static long queryLong(String sql) throws Exception {
    try (Connection c = DB.connect();
        ResultSet rs = c.createStatement().executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static String writer(long instance) throws Exception {
    try (Connection c = DB.connect();
        ResultSet rs =
            c.createStatement()
                .executeQuery(
                    "SELECT writer || '#' || writer_epoch FROM sluice_batch_instance WHERE id = "
                        + instance)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  private static Map<String, Long> processedByNode(long instance) throws Exception {
    return SharedStoreNode.processedByNode(DB, instance);
  }
}
