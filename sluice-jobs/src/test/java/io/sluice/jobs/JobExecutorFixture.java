package io.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.store.Storage;
import io.sluice.jobs.spi.JobInfo;
import io.sluice.jobs.spi.JobState;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.NewJob;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.slf4j.LoggerFactory;

/**
 * A real database with the real clock under executor nodes started by a test, and what their tests
 * share: starting nodes, reading meters, warnings and job states. Extended once for SQLite and once
 * for PostgreSQL by each contract. Tests wait with Awaitility, never by sleeping.
 */
abstract class JobExecutorFixture {

  static final Duration PATIENCE = Duration.ofSeconds(10);

  protected final Clock clock = Clock.systemUTC();
  protected Storage storage;
  protected JobStore store;
  protected final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<JobExecutor> executors = new ArrayList<>();
  private final List<AutoCloseable> others = new ArrayList<>();
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

  /** The database the nodes share: SQLite or PostgreSQL. */
  protected abstract JobTestDatabase database();

  /**
   * The job store as another node sees it: on PostgreSQL another storage (its own connections and
   * listener); on SQLite, owned by one process, the same store.
   */
  protected JobStore otherNode() {
    Storage another = database().another(clock);
    return another == null ? store : JobTestStorages.jobs(closeAfter(another));
  }

  /** A connection to the database behind the storage's back. */
  protected Connection connect() throws Exception {
    return database().connect();
  }

  /** Makes the job tables unwritable until the result is closed ({@link JobTestDatabase}). */
  protected AutoCloseable blockWrites() throws Exception {
    return database().blockWrites();
  }

  /** Keeps {@code closeable} to close after the test. */
  protected <T extends AutoCloseable> T closeAfter(T closeable) {
    others.add(closeable);
    return closeable;
  }

  @BeforeEach
  void open() throws Exception {
    storage = database().open(clock);
    store = JobTestStorages.jobs(storage);
    logs.start();
    ((Logger) LoggerFactory.getLogger("io.sluice.jobs")).addAppender(logs);
  }

  @AfterEach
  void closeAll() throws Exception {
    executors.forEach(JobExecutor::close);
    for (AutoCloseable other : others.reversed()) {
      other.close();
    }
    storage.close();
    ((Logger) LoggerFactory.getLogger("io.sluice.jobs")).detachAppender(logs);
    assertThat(Thread.getAllStackTraces().keySet())
        .as("no executor thread outlives its executor")
        .noneMatch(t -> t.isAlive() && t.getName().startsWith("sluice-jobs-"));
    assertThat(logs.list).as("no ERROR logged").noneMatch(e -> e.getLevel() == Level.ERROR);
  }

  /** A started executor named {@code node} with these handlers and configuration changes. */
  protected JobExecutor start(
      String node,
      Map<String, JobHandler> handlers,
      UnaryOperator<JobExecutorConfig.Builder> config) {
    return start(store, node, handlers, config);
  }

  protected JobExecutor start(
      JobStore on,
      String node,
      Map<String, JobHandler> handlers,
      UnaryOperator<JobExecutorConfig.Builder> config) {
    JobExecutor.Builder builder =
        JobExecutor.builder(on)
            .meterRegistry(registry)
            .config(config.apply(JobExecutorConfig.builder().nodeId(node)).build());
    handlers.forEach(builder::handler);
    JobExecutor executor = builder.build();
    executors.add(executor);
    executor.start();
    return executor;
  }

  protected double count(String meter, String node) {
    return registry.get(meter).tag("node", node).counter().count();
  }

  protected List<String> warnings(String containing) {
    // Under the appender's lock, which its append holds: the executor's threads log while a test
    // reads (a ConcurrentModificationException failed a CI rehearsal here).
    synchronized (logs) {
      return logs.list.stream()
          .filter(e -> e.getLevel() == Level.WARN)
          .map(ILoggingEvent::getFormattedMessage)
          .filter(m -> m.contains(containing))
          .toList();
    }
  }

  /** A handler that notes each run and its thread, then waits until {@link #open} opens. */
  protected static final class Gate {
    final CountDownLatch open = new CountDownLatch(1);
    final AtomicInteger entered = new AtomicInteger();
    final List<Thread> threads = new CopyOnWriteArrayList<>();

    JobHandler handler() {
      return job -> {
        threads.add(Thread.currentThread());
        entered.incrementAndGet();
        open.await();
      };
    }
  }

  /**
   * Creates {@code count} email jobs, due now, whose payloads are 0, 1, 2...; returns their ids.
   */
  protected List<Long> emails(int count) {
    return store.createAll(IntStream.range(0, count).mapToObj(i -> NewJob.of("email", i)).toList());
  }

  /** Whether every one of these jobs is finished (gone from the store). */
  protected boolean finished(List<Long> ids) {
    return ids.stream().allMatch(id -> store.find(id).isEmpty());
  }

  protected JobState state(long id) {
    return store.find(id).map(JobInfo::state).orElse(null);
  }

  /** How many of these jobs are running (held by a node). */
  protected long held(List<Long> ids) {
    return ids.stream().filter(id -> state(id) instanceof JobState.Running).count();
  }
}
