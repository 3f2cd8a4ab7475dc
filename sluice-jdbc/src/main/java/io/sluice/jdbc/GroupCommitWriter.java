package io.sluice.jdbc;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.store.StoreException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer of a storage: a thread that owns a write connection and commits, in one transaction,
 * all the write work that is waiting when it gets to it, so that many small writes share one commit
 * (one fsync on SQLite, one round trip on PostgreSQL). SQLite has one such thread (the database
 * allows one writer); PostgreSQL a few, taking from the same waiting work. Callers block until
 * their work is committed. When the shared transaction fails, it is rolled back and each piece of
 * work is run again in its own transaction, so only the bad one fails and nothing of it is visible.
 */
final class GroupCommitWriter implements AutoCloseable {

  /** Write work: runs inside the writer's transaction; must not keep state across attempts. */
  @FunctionalInterface
  interface Work<T> {
    /** Does the work on the writer's connection; may be run again after a rollback. */
    T run(WriteContext tx) throws SQLException;
  }

  /**
   * Write work that the callers waiting together share: run once per transaction for all their
   * items, in the order they came, so that many single enqueues become one multi-row insert.
   */
  @FunctionalInterface
  interface SharedWork<I, R> {
    /** One result per item, in order; may be run again, with fewer items, after a rollback. */
    List<R> run(WriteContext tx, List<I> items) throws SQLException;
  }

  /** Where the writer gets its connection; asked again after the last one broke. */
  @FunctionalInterface
  interface ConnectionSource {
    /** A connection in auto-commit mode; the writer starts and ends transactions itself. */
    Connection open() throws SQLException;
  }

  private static final Logger LOG = LoggerFactory.getLogger(GroupCommitWriter.class);

  /** The most pieces of work in one transaction: bounds how long the first of them waits. */
  private static final int MAX_BATCH = 2048;

  private static final Pending<Void> STOP = new Pending<>("stop", tx -> null);

  private final Dialect dialect;
  private final ConnectionSource source;
  private final Consumer<Set<String>> afterCommit;
  private final JdbcFailures failures;
  private final LinkedBlockingQueue<Pending<?>> waiting = new LinkedBlockingQueue<>();
  private final Counter commits;
  private final DistributionSummary commitWrites;
  private final Counter commitFailures;
  private final Counter conflictRetries;
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicInteger lanes = new AtomicInteger();
  private volatile boolean closed;

  /**
   * A writer on {@code source}, started; {@code afterCommit} gets the queues a commit made messages
   * ready in, to wake their waiters.
   */
  GroupCommitWriter(
      Dialect dialect,
      ConnectionSource source,
      Consumer<Set<String>> afterCommit,
      JdbcFailures failures,
      MeterRegistry registry,
      int connections) {
    this.dialect = dialect;
    this.source = source;
    this.afterCommit = afterCommit;
    this.failures = failures;
    this.commits =
        Counter.builder("sluice.store.commits")
            .description("Write transactions committed by the store's writer")
            .tag("type", dialect.type())
            .register(registry);
    this.commitWrites =
        DistributionSummary.builder("sluice.store.commit.writes")
            .description("Pieces of write work sharing one commit")
            .tag("type", dialect.type())
            .register(registry);
    this.commitFailures =
        Counter.builder("sluice.store.commit.failures")
            .description("Write transactions that failed and were rolled back")
            .tag("type", dialect.type())
            .register(registry);
    this.conflictRetries =
        Counter.builder("sluice.store.commit.conflicts")
            .description("Write work run again after losing a lock conflict (a deadlock's victim)")
            .tag("type", dialect.type())
            .register(registry);
    // Platform threads: the SQLite driver's native calls would pin a virtual thread's carrier.
    for (int i = 0; i < connections; i++) {
      Thread thread =
          Thread.ofPlatform()
              .name("sluice-writer-" + dialect.type() + (connections == 1 ? "" : "-" + i))
              .unstarted(() -> new Lane().run());
      thread.setDaemon(true);
      threads.add(thread);
    }
    lanes.set(connections);
    threads.forEach(Thread::start);
  }

  /**
   * Runs {@code work} in the writer's next transaction and returns its result once committed; a
   * {@link StoreException} saying what could not be done ({@code what}) when it failed.
   */
  <T> T submit(String what, Work<T> work) {
    if (closed) {
      throw failures.closed(what);
    }
    Pending<T> pending = new Pending<>(what, work);
    waiting.add(pending);
    if (closed) {
      failWaiting();
    }
    return pending.await(failures);
  }

  /**
   * Runs {@code work} for {@code item} in the writer's next transaction, together with the items
   * other callers gave the same {@code work}; returns this item's result once committed.
   */
  <I, R> R submit(String what, SharedWork<I, R> work, I item) {
    if (closed) {
      throw failures.closed(what);
    }
    Pending<R> pending = new Pending<>(what, work, item);
    waiting.add(pending);
    if (closed) {
      failWaiting();
    }
    return pending.await(failures);
  }

  /** How many pieces of work wait for the writer (not counting what it is running). */
  int waiting() {
    return waiting.size();
  }

  private enum Outcome {
    COMMITTED,
    FAILED,
    NO_CONNECTION,
    /** Alone, it lost a lock conflict (the database chose it as a deadlock's victim): run again. */
    CONFLICT
  }

  /**
   * How many times work alone is run again after losing a lock conflict before it fails. Two lanes
   * share the PostgreSQL writes, so two transactions can each hold a row the other wants (the batch
   * store's instance and step rows, whose order differs from one piece of work to the next); the
   * database rolls one back, and run again it finds the other committed.
   */
  static final int CONFLICT_RETRIES = 5;

  /** Runs each piece in order; shared work once, where its first item stands, for all items. */
  private static void runAll(WriteContext tx, List<Pending<?>> batch) throws SQLException {
    Map<SharedWork<?, ?>, List<Pending<?>>> shared = new IdentityHashMap<>();
    for (Pending<?> pending : batch) {
      if (pending.shared != null) {
        shared.computeIfAbsent(pending.shared, w -> new ArrayList<>()).add(pending);
      }
    }
    for (Pending<?> pending : batch) {
      if (pending.shared == null) {
        pending.runIn(tx);
      } else if (shared.containsKey(pending.shared)) {
        Pending.runShared(tx, shared.remove(pending.shared));
      }
    }
  }

  /**
   * One writing connection and the thread that commits on it. SQLite has one; PostgreSQL several,
   * taking turns at the same waiting work, so that one node's commits overlap (the database keeps
   * concurrent takes apart with {@code SKIP LOCKED}, and its own group commit shares the flushes).
   */
  private final class Lane {
    private WriteContext current;

    private void run() {
      List<Pending<?>> batch = new ArrayList<>();
      try {
        while (true) {
          Pending<?> first = waiting.take();
          if (first == STOP) {
            break;
          }
          batch.add(first);
          waiting.drainTo(batch, MAX_BATCH - 1);
          boolean stop = batch.removeIf(p -> p == STOP);
          try {
            process(batch);
          } catch (RuntimeException | Error e) {
            LOG.error("The {} writer failed unexpectedly; failing its pending writes", dialect, e);
            batch.forEach(p -> p.fail(e));
          }
          batch.clear();
          if (stop) {
            break;
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        dropConnection();
        if (lanes.decrementAndGet() == 0) {
          failWaiting();
        } else {
          // The stop is for every lane: pass it on.
          waiting.add(STOP);
        }
      }
    }

    private void process(List<Pending<?>> batch) {
      if (batch.size() > 1 && attempt(batch, false) != Outcome.FAILED) {
        return;
      }
      for (Pending<?> alone : batch) {
        if (alone(alone) == Outcome.NO_CONNECTION) {
          // The others would each wait for a connection in vain: attempt() failed them all.
          batch.stream().filter(p -> !p.done()).forEach(p -> p.fail(alone.failure()));
          return;
        }
      }
    }

    /** Runs {@code work} in a transaction of its own, again when it loses a lock conflict. */
    private Outcome alone(Pending<?> work) {
      for (int conflicts = 0; ; conflicts++) {
        Outcome outcome = attempt(List.of(work), conflicts < CONFLICT_RETRIES);
        if (outcome != Outcome.CONFLICT) {
          return outcome;
        }
        conflictRetries.increment();
      }
    }

    /**
     * Runs {@code batch} in one transaction; on failure rolls back and, if alone, fails it, unless
     * it lost a lock conflict and {@code mayRetry}.
     */
    private Outcome attempt(List<Pending<?>> batch, boolean mayRetry) {
      WriteContext tx;
      try {
        tx = context();
      } catch (SQLException e) {
        batch.forEach(p -> p.fail(e));
        return Outcome.NO_CONNECTION;
      }
      try {
        tx.prepare(dialect.begin()).execute();
        runAll(tx, batch);
        dialect.notifyQueues(tx, tx.enqueuedQueues());
        tx.prepare("COMMIT").execute();
      } catch (SQLException | RuntimeException e) {
        commitFailures.increment();
        rollback(tx);
        tx.clearQueues();
        if (batch.size() == 1) {
          if (mayRetry && JdbcFailures.isLockConflict(e)) {
            return Outcome.CONFLICT;
          }
          batch.getFirst().fail(e);
        }
        return Outcome.FAILED;
      }
      commits.increment();
      commitWrites.record(batch.size());
      Set<String> readied = Set.copyOf(tx.readiedQueues());
      tx.clearQueues();
      // The waiters are woken before the writers hear of their commit: a caller that reads the
      // signal's generation once its write returned sees the change it made (a contract test saw
      // the old generation under load).
      try {
        if (!readied.isEmpty()) {
          afterCommit.accept(readied);
        }
      } finally {
        // Committed whatever a waiter's wake-up threw: the writers must hear it, or they wait on.
        batch.forEach(Pending::complete);
      }
      return Outcome.COMMITTED;
    }

    private WriteContext context() throws SQLException {
      if (current == null) {
        current = new WriteContext(source.open());
      }
      return current;
    }

    private void rollback(WriteContext tx) {
      try {
        tx.prepare("ROLLBACK").execute();
      } catch (SQLException e) {
        // No transaction left to roll back, or the connection broke: checked below.
      }
      // A statement that failed may be left unusable by the driver (sqlite-jdbc after
      // SQLITE_FULL): failures are rare, so prepare everything afresh.
      tx.closeStatements();
      try {
        if (tx.connection().isValid(1)) {
          return;
        }
      } catch (SQLException e) {
        // Treated as broken.
      }
      dropConnection();
    }

    private void dropConnection() {
      if (current == null) {
        return;
      }
      current.closeStatements();
      try {
        current.connection().close();
      } catch (SQLException e) {
        LOG.debug("Closing the broken {} write connection failed", dialect, e);
      }
      current = null;
    }
  }

  private void failWaiting() {
    List<Pending<?>> left = new ArrayList<>();
    waiting.drainTo(left);
    left.stream().filter(p -> p != STOP).forEach(p -> p.fail(failures.closed(p.what)));
  }

  /** Commits what is waiting, then stops the writer and closes its connection. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    waiting.add(STOP);
    threads.forEach(Threads::joinUninterruptibly);
    failWaiting();
  }

  /** One caller's work and the future it waits on. */
  private static final class Pending<T> {
    private final String what;
    private final Work<T> work;
    private final SharedWork<?, ?> shared;
    private final Object item;
    private final CompletableFuture<T> future = new CompletableFuture<>();
    private T result;
    private Throwable failure;

    Pending(String what, Work<T> work) {
      this.what = what;
      this.work = work;
      this.shared = null;
      this.item = null;
    }

    <I> Pending(String what, SharedWork<I, T> shared, I item) {
      this.what = what;
      this.work = null;
      this.shared = shared;
      this.item = item;
    }

    /** Runs the shared work of {@code group} (all with the same work) once for all their items. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static void runShared(WriteContext tx, List<Pending<?>> group) throws SQLException {
      List<Object> items = new ArrayList<>(group.size());
      for (Pending<?> pending : group) {
        items.add(pending.item);
      }
      List<?> results = ((SharedWork) group.getFirst().shared).run(tx, items);
      for (int i = 0; i < group.size(); i++) {
        ((Pending<Object>) group.get(i)).result = results.get(i);
      }
    }

    void runIn(WriteContext tx) throws SQLException {
      result = work.run(tx);
    }

    void complete() {
      future.complete(result);
    }

    void fail(Throwable e) {
      failure = e;
      future.completeExceptionally(e);
    }

    boolean done() {
      return future.isDone();
    }

    Throwable failure() {
      return failure;
    }

    T await(JdbcFailures failures) {
      try {
        // join, not get: the work may be committing already, so an interrupt waits for the
        // outcome (join keeps the interrupt).
        return future.join();
      } catch (CompletionException e) {
        throw failures.translate(what, e.getCause());
      }
    }
  }
}
