package io.sluice.jobs.spi;

import io.sluice.core.store.StoreException;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Durable jobs shared by the executor nodes of one database: created, claimed by a node under its
 * lease, then completed (deleted, and written to the {@link #history}), failed (retried after a
 * backoff, or an incident once no retry is left, which the history records too) or released.
 *
 * <ul>
 *   <li>Claim order is a sort key that ages priorities: {@code due time − priority × aging}, so a
 *       job of priority {@code p} goes before jobs of lower priority due up to {@code p × aging}
 *       earlier, and a low priority job waits a bounded time under a flood of higher ones.
 *   <li>A node registers for a lease measured on the database's clock and renews it; its epoch is
 *       the fencing token. Completions, failures and releases change only jobs held by the same
 *       node and epoch, so a node that woke up late cannot finish what another now owns.
 *   <li>{@link #reclaim()} makes the jobs of every lapsed or replaced lease claimable again, in one
 *       statement.
 *   <li>Jobs with the same {@link NewJob#exclusiveKey() exclusive key} never run at the same time:
 *       no job of a key is claimed while another job of that key is claimed (running or waiting for
 *       its turn on a node), and a claim takes a key's due jobs together, in due order (due time,
 *       then id), for one node to run one after another. A claim decides for a key under a lock on
 *       that key, so two nodes claiming at once never both take it. Jobs without a key, or with
 *       different keys, run in parallel. A retried job of a key is due at its retry time, so the
 *       key's jobs due before that run first.
 * </ul>
 *
 * Thread-safe. Errors are {@link StoreException}s naming the store and what was tried.
 */
public interface JobStore {

  /** What {@link #fail} did. */
  enum FailOutcome {
    /** The job waits for its retry after the backoff. */
    RETRY,
    /** No retry was left: the job is an incident. */
    INCIDENT,
    /** This lease did not hold the job (any more): nothing changed. */
    NOT_HELD
  }

  /**
   * Creates a job; returns its id once committed (the existing job's id for a known key). A job
   * with an exclusive key is refused ({@link IllegalStateException}) while jobs of its type run
   * without one: the key could not hold them back.
   */
  long create(NewJob job);

  /** Creates these jobs in one commit, in order; returns their ids. */
  List<Long> createAll(List<NewJob> jobs);

  /**
   * Creates a job inside the caller's transaction on {@code transaction}, a connection to this
   * store's database that the caller commits or rolls back: the job exists if and only if the
   * caller's work committed. Returns its id (the existing job's id for a known key).
   */
  long create(Connection transaction, NewJob job);

  /** Registers {@code node} for a lease of {@code duration}; a new epoch each time. */
  NodeLease register(String node, Duration duration);

  /**
   * Extends {@code lease} to {@code duration} from now on the database's clock; false when it had
   * lapsed or was replaced (the node must register again and gets a new epoch).
   */
  boolean renew(NodeLease lease, Duration duration);

  /**
   * How many nodes with a lease valid on the database's clock sort before {@code lease}'s node by
   * name: its rank among the live nodes, 0 for the first (and for a lone node).
   */
  int rank(NodeLease lease);

  /** Releases what {@code lease} holds and forgets the node: a graceful stop. */
  void deregister(NodeLease lease);

  /**
   * Claims up to {@code max} due jobs of these {@code types} for {@code lease}, in aged-priority
   * order; none when the lease is not valid on the database's clock.
   */
  List<ClaimedJob> claim(NodeLease lease, Set<String> types, int max);

  /**
   * What a claim that also completed jobs did.
   *
   * @param claimed the jobs claimed, in aged-priority order
   * @param completed the ids of {@code done} it completed (as {@link #complete(NodeLease,
   *     Collection)} says)
   */
  record ClaimResult(List<ClaimedJob> claimed, Set<Long> completed) {}

  /**
   * Completes the jobs of {@code done} that {@code lease} holds and claims up to {@code max} due
   * jobs as {@link #claim(NodeLease, Set, int)} does, in one commit (on PostgreSQL one statement):
   * one round trip serves the jobs a node finished and those it takes next.
   */
  ClaimResult claim(NodeLease lease, Set<String> types, int max, Collection<Long> done);

  /**
   * What an optimistic claim got.
   *
   * @param jobs the jobs claimed, in aged-priority order
   * @param lockFailures the candidates another node claimed between the select and the update
   */
  record ClaimAttempt(List<ClaimedJob> jobs, int lockFailures) {}

  /**
   * Claims as Camunda 7 does: selects up to {@code max} due candidates of these {@code types}
   * without locking them, then updates each on the version it read; a candidate that changed in
   * between (another node claimed it) is a lock failure, not claimed. Nothing is claimed when the
   * lease is not valid on the database's clock. {@link #claim} wastes no work; this exists to
   * compare with it.
   */
  ClaimAttempt claimOptimistically(NodeLease lease, Set<String> types, int max);

  /**
   * Completes (deletes) the jobs with these ids that {@code lease} holds, in one commit; returns
   * the ids it completed. An id left out was not held by this lease: it lapsed and another node may
   * own the job now.
   */
  Set<Long> complete(NodeLease lease, Collection<Long> ids);

  /**
   * Completes job {@code id}, held by {@code lease}, inside the caller's transaction on {@code
   * transaction} (a connection to this store's database that the caller commits or rolls back): the
   * job is finished exactly when the caller's work commits. False, changing nothing, when the lease
   * does not hold the job (any more): the caller must roll back.
   */
  boolean complete(Connection transaction, NodeLease lease, long id);

  /**
   * Records that a run of job {@code id} failed with {@code error}: it is retried at {@code
   * retryAt}, or becomes an incident when no retry is left.
   */
  FailOutcome fail(NodeLease lease, long id, String error, Instant retryAt);

  /** Makes job {@code id} an incident at once (its payload cannot be read); false when not held. */
  boolean incident(NodeLease lease, long id, String error);

  /** Hands these held jobs back at once, their attempt not counted; returns how many. */
  int release(NodeLease lease, Collection<Long> ids);

  /** Makes incident {@code id} wait again, due now, with {@code retries} retries; false if none. */
  boolean retry(long id, int retries);

  /**
   * Makes every incident of {@code type} wait again, due now, with {@code retries} retries, in one
   * statement; returns how many. An incident of another type is left as it is.
   */
  int retryIncidents(String type, int retries);

  /**
   * How long this store keeps the entries of its {@link #history}: a node that ranks first among
   * the live nodes {@link #prune}s those older. Zero when it keeps none: nothing is written, and
   * the entries left from when it kept some are pruned.
   */
  Duration historyRetention();

  /**
   * The entries of the history {@code query} asks for, newest first: one per job that completed,
   * and one per job that failed with no retry left (became an incident), written in the commit that
   * ended it. A store that keeps no history writes none (the entries written before it stopped are
   * read until they are pruned).
   */
  List<FinishedJob> history(HistoryQuery query);

  /**
   * Deletes, of the {@code max} oldest entries of the history (in the order they were written),
   * those that ended before {@code finishedBefore}, in one statement; returns how many. Bounded so
   * that a delete never holds the tables long: call it again while it returns {@code max}.
   */
  int prune(Instant finishedBefore, int max);

  /** Makes every job held by a lapsed or replaced lease claimable; returns their ids. */
  List<Long> reclaim();

  /** The job with this id, if it is not finished. */
  Optional<JobInfo> find(long id);

  /** Up to {@code max} incidents, oldest first. */
  List<JobInfo> incidents(int max);

  /** Jobs waiting (due or not), per type. */
  Map<String, Long> waitingByType();

  /** The unfinished jobs {@code query} asks for, in id order: at most its {@code max}. */
  List<JobInfo> list(JobQuery query);

  /**
   * The unfinished jobs counted per type, in type order: waiting, due now on {@link #clock()},
   * running and incidents, with the oldest due time. A type with no unfinished job is left out.
   */
  List<JobTypeStats> stats();

  /** Jobs waiting (due or not), per type and priority, in type order, highest priority first. */
  List<WaitingJobs> waitingByPriority();

  /** Running jobs per node that holds them, in node order. */
  Map<String, Long> runningByNode();

  /**
   * Every node in the node table, in node order, live or lapsed, with what is left of its lease on
   * the database's clock.
   */
  List<NodeInfo> nodes();

  /**
   * When the next job of these {@code types} that is not due yet becomes due, if one does before
   * {@code horizon}.
   */
  Optional<Instant> nextDue(Set<String> types, Instant horizon);

  /** The clock due times are measured on (the application's). */
  Clock clock();

  /**
   * A number that moves when jobs may have become claimable: created, released, reclaimed or
   * retried here, or on another node that notified (PostgreSQL), or {@link #wake()} was called.
   * Read it before looking, then {@link #awaitChange} so a change in between is not missed.
   */
  long changes();

  /** Waits until {@link #changes()} moves past {@code seen}, at most {@code timeout}. */
  boolean awaitChange(long seen, Duration timeout) throws InterruptedException;

  /** Moves {@link #changes()} in this process: an executor has room for more jobs. */
  void wake();
}
