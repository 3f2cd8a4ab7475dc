package io.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.jobs.spi.ClaimedJob;
import io.sluice.jobs.spi.FinishedJob;
import io.sluice.jobs.spi.HistoryQuery;
import io.sluice.jobs.spi.JobInfo;
import io.sluice.jobs.spi.JobQuery;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.JobTypeStats;
import io.sluice.jobs.spi.NewJob;
import io.sluice.jobs.spi.NodeLease;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real job store whose waits the test drives, as a manual clock would: each wait the acquisition
 * loop asks for is recorded, and lasts until a change comes (a job created, a job ended, a
 * notification) or the test ends it with {@link #endWait()}. So a test reads the waits a node
 * chooses, one claim after another, without sleeping through them. It can also have the next
 * optimistic cycles report a lock failure each, as if another node had taken a candidate.
 */
final class SteppedJobStore implements JobStore {

  private static final Duration LONGER_THAN_ANY_TEST = Duration.ofDays(1);

  private final JobStore store;
  private final BlockingQueue<Duration> waits = new LinkedBlockingQueue<>();
  private final List<Integer> candidatesAsked = new CopyOnWriteArrayList<>();
  private final AtomicInteger collisions = new AtomicInteger();

  SteppedJobStore(JobStore store) {
    this.store = store;
  }

  /** The next wait the loop asks for (waiting up to 10 s for it to ask). */
  Duration nextWait() throws InterruptedException {
    Duration wait = waits.poll(10, TimeUnit.SECONDS);
    assertThat(wait).as("the acquisition loop asked for a wait within 10 s").isNotNull();
    return wait;
  }

  /** Ends the wait the loop is in (or its next one), as if its time had passed. */
  void endWait() {
    store.wake();
  }

  /** Has each of the next {@code cycles} optimistic cycles report one lock failure more. */
  void collideNext(int cycles) {
    collisions.set(cycles);
  }

  /** The candidates each optimistic cycle asked for, in order. */
  List<Integer> candidatesAsked() {
    return candidatesAsked;
  }

  @Override
  public boolean awaitChange(long seen, Duration timeout) throws InterruptedException {
    waits.add(timeout);
    return store.awaitChange(seen, LONGER_THAN_ANY_TEST);
  }

  @Override
  public ClaimAttempt claimOptimistically(NodeLease lease, Set<String> types, int max) {
    candidatesAsked.add(max);
    ClaimAttempt attempt = store.claimOptimistically(lease, types, max);
    int collided = collisions.getAndUpdate(n -> Math.max(0, n - 1)) > 0 ? 1 : 0;
    return new ClaimAttempt(attempt.jobs(), attempt.lockFailures() + collided);
  }

  // Everything else as the real store does it.

  @Override
  public long create(NewJob job) {
    return store.create(job);
  }

  @Override
  public List<Long> createAll(List<NewJob> jobs) {
    return store.createAll(jobs);
  }

  @Override
  public long create(Connection transaction, NewJob job) {
    return store.create(transaction, job);
  }

  @Override
  public NodeLease register(String node, Duration duration) {
    return store.register(node, duration);
  }

  @Override
  public boolean renew(NodeLease lease, Duration duration) {
    return store.renew(lease, duration);
  }

  @Override
  public int rank(NodeLease lease) {
    return store.rank(lease);
  }

  @Override
  public void deregister(NodeLease lease) {
    store.deregister(lease);
  }

  @Override
  public List<ClaimedJob> claim(NodeLease lease, Set<String> types, int max) {
    return store.claim(lease, types, max);
  }

  @Override
  public ClaimResult claim(NodeLease lease, Set<String> types, int max, Collection<Long> done) {
    return store.claim(lease, types, max, done);
  }

  @Override
  public Set<Long> complete(NodeLease lease, Collection<Long> ids) {
    return store.complete(lease, ids);
  }

  @Override
  public boolean complete(Connection transaction, NodeLease lease, long id) {
    return store.complete(transaction, lease, id);
  }

  @Override
  public FailOutcome fail(NodeLease lease, long id, String error, Instant retryAt) {
    return store.fail(lease, id, error, retryAt);
  }

  @Override
  public boolean incident(NodeLease lease, long id, String error) {
    return store.incident(lease, id, error);
  }

  @Override
  public int release(NodeLease lease, Collection<Long> ids) {
    return store.release(lease, ids);
  }

  @Override
  public boolean retry(long id, int retries) {
    return store.retry(id, retries);
  }

  @Override
  public int retryIncidents(String type, int retries) {
    return store.retryIncidents(type, retries);
  }

  @Override
  public Duration historyRetention() {
    return store.historyRetention();
  }

  @Override
  public List<FinishedJob> history(HistoryQuery query) {
    return store.history(query);
  }

  @Override
  public int prune(Instant finishedBefore, int max) {
    return store.prune(finishedBefore, max);
  }

  @Override
  public List<Long> reclaim() {
    return store.reclaim();
  }

  @Override
  public Optional<JobInfo> find(long id) {
    return store.find(id);
  }

  @Override
  public List<JobInfo> incidents(int max) {
    return store.incidents(max);
  }

  @Override
  public Map<String, Long> waitingByType() {
    return store.waitingByType();
  }

  @Override
  public List<JobInfo> list(JobQuery query) {
    return store.list(query);
  }

  @Override
  public List<JobTypeStats> stats() {
    return store.stats();
  }

  @Override
  public List<io.sluice.jobs.spi.WaitingJobs> waitingByPriority() {
    return store.waitingByPriority();
  }

  @Override
  public Map<String, Long> runningByNode() {
    return store.runningByNode();
  }

  @Override
  public List<io.sluice.jobs.spi.NodeInfo> nodes() {
    return store.nodes();
  }

  @Override
  public Optional<Instant> nextDue(Set<String> types, Instant horizon) {
    return store.nextDue(types, horizon);
  }

  @Override
  public Clock clock() {
    return store.clock();
  }

  @Override
  public long changes() {
    return store.changes();
  }

  @Override
  public void wake() {
    store.wake();
  }
}
