package io.sluice.batch.internal;

import io.sluice.batch.BatchInput;
import io.sluice.batch.BatchState;
import io.sluice.core.Backoff;
import io.sluice.jdbc.SqlStates;
import io.sluice.jobs.spi.NodeLease;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run on a store several nodes share (PostgreSQL): every node that runs the instance claims its
 * blocks, a few at a time, under its node lease ({@code FOR UPDATE SKIP LOCKED}), and every move of
 * a claimed block is fenced by that lease, so a node that wakes after its lease lapsed commits
 * nothing. One node at a time loads the input (under the same lease: another takes the loading over
 * from the stored position once it lapses). The loading node stores the blocks it has free places
 * for claimed by itself and runs them from memory, and keeps up to {@link #AHEAD} more stored
 * unclaimed for the other nodes; it claims none of those while it loads, so that alone it reads
 * back no block it just wrote. A node whose blocks are all through, while other nodes still hold
 * some, waits: if one of them dies, its blocks are claimable once its lease lapses.
 */
final class SharedClaims {

  private static final Logger LOG = LoggerFactory.getLogger(BatchRun.class);

  /** The most blocks one claim takes: small sets, so that every node gets its share. */
  static final int CLAIM = 8;

  /** How many stored blocks no node holds before the loader waits for the nodes to claim some. */
  static final int AHEAD = 64;

  /** The pause of a node whose store did not answer: 100 ms doubled up to 2 s. */
  static final Backoff OUTAGE = Backoff.doubling(Duration.ofMillis(100), Duration.ofMillis(2_000));

  /** The pause of a node that found nothing to claim: 5 ms doubled up to 200 ms. */
  static final Backoff IDLE = Backoff.doubling(Duration.ofMillis(5), Duration.ofMillis(200));

  private final BatchRun run;
  private volatile Thread loader;

  /** Blocks that left this run unmoved, to let go of. */
  private final java.util.Queue<Long> dropped = new java.util.concurrent.ConcurrentLinkedQueue<>();

  /**
   * Whether a claim or a load failed with its outcome unknown (the store broke off): blocks it may
   * have taken for this node are let go at the next claim unless this node has them in memory.
   */
  private volatile boolean uncertain;

  /** Given when this node's loading ends: its claims look again at once. */
  private final Semaphore loadEnded = new Semaphore(0);

  private long lookedAt = System.nanoTime() - LOOK_NANOS;

  /** How often a node that does not load looks whether the loading node's lease lapsed. */
  static final long LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

  SharedClaims(BatchRun run) {
    this.run = run;
  }

  /**
   * Begins this node's part: when nobody works on the instance (a new instance, or one a stop or a
   * crash left), it is resumed as on one node; else this node joins the nodes running it.
   */
  void begin() {
    BlockStore.Shared at = run.store.shared(run.instance);
    boolean live = at.state() == BatchState.LOADING || at.state() == BatchState.RUNNING;
    if (live && at.worked()) {
      LOG.info(
          "Batch job {} instance {}: node {} joins the nodes running it",
          run.job.name(),
          run.instance,
          run.lease);
    } else {
      run.store.resumed(run.instance, run.job.keepFailedRecords());
    }
  }

  /**
   * Claims and runs blocks (loading the input when no other node does) until the instance ends. A
   * store out of reach pauses the claims; a lost lease (the node paused, or the store away, past
   * it) lets what was held under it go and rejoins under the new one.
   */
  void run() {
    int misses = 0;
    int failures = 0;
    while (true) {
      if (!run.holdsLease() && !run.stopping && !run.limitPassed()) {
        if (!rejoin()) {
          break;
        }
        continue;
      }
      if (!run.mayDispatch()) {
        break;
      }
      try {
        Boolean more = claimOnce();
        if (run.outage.recovered()) {
          LOG.info(
              "Batch job {} instance {}: node {} reaches the store again",
              run.job.name(),
              run.instance,
              run.lease);
        }
        failures = 0;
        if (more == null) {
          break;
        }
        if (more) {
          misses = 0;
        } else {
          // Woken at once when this node's loading ends; another node's blocks are seen at the
          // next look.
          await(loadEnded, IDLE.delay(misses++));
        }
      } catch (RuntimeException e) {
        if (!SqlStates.retryable(e)) {
          run.fail(e);
          break;
        }
        uncertain();
        run.unreachable(e);
        pause(OUTAGE.delay(failures++));
      }
    }
    Thread loading = loader;
    if (loading != null) {
      try {
        loading.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        run.stopping = true;
      }
    }
  }

  /**
   * One claim: true when it claimed blocks (or waited for a free place), false when there was
   * nothing to claim now, null when the run is over (the instance is through, or stopped).
   */
  private Boolean claimOnce() {
    releaseDropped();
    releaseUnknown();
    SharedOutput output = run.sharedOutput;
    if (output != null) {
      output.look();
    }
    long now = System.nanoTime();
    if (!run.inputRead && (loader == null || !loader.isAlive()) && now - lookedAt >= LOOK_NANOS) {
      // Whether this node loads: at first, then twice a second while it does not (the loading
      // node may die while this one's places are all taken).
      lookedAt = now;
      takeLoading();
    }
    if (!loadingHere()) {
      int room = Math.min(CLAIM, run.slots.availablePermits());
      if (room == 0) {
        awaitSlot();
        return true;
      }
      List<BlockStore.Block> claimed = run.store.claim(run.instance, run.lease, room);
      if (!claimed.isEmpty()) {
        run.idle = false;
        for (BlockStore.Block block : claimed) {
          if (block.unreadable() == null) {
            run.mine.add(block.number());
            run.blocksFromStore.increment();
            run.dispatch(block);
          } else {
            run.loading.dropUnreadable(block);
          }
        }
        return true;
      }
    }
    BlockStore.Shared at = run.store.shared(run.instance);
    run.failed.accumulateAndGet(at.failed(), Math::max);
    if (at.finished()) {
      run.inputRead = true;
      return null;
    }
    if (at.stopRequested() || at.state() == BatchState.STOPPED || at.state() == BatchState.FAILED) {
      run.stopping = true;
      return null;
    }
    if (at.inputDone() && at.claimable() == 0) {
      // Nothing left to claim: what this node's aggregators hold goes to their sinks now, or the
      // nodes would wait for each other's last groups.
      run.idle = true;
      run.maybeFinish();
    }
    return false;
  }

  /**
   * After the lease the run claimed under was lost: waits until nothing of it is in flight (its
   * commits are refused, its aggregators' parked blocks let go), then for the node's new lease, and
   * goes on under it. False when the run stops meanwhile.
   */
  private boolean rejoin() {
    LOG.warn(
        "Batch job {} instance {}: node {} lost its lease; what it held under it is left to the"
            + " other nodes (its late commits are refused), and it rejoins under a new lease",
        run.job.name(),
        run.instance,
        run.lease);
    SharedOutput output = run.sharedOutput;
    if (output != null) {
      output.yieldWriting();
    }
    while (run.active.get() > 0 || run.groupsInFlight.get() > 0) {
      if (run.stopping) {
        return false;
      }
      pause(Duration.ofMillis(10));
    }
    run.abandonParked();
    int misses = 0;
    while (!run.stopping) {
      NodeLease now = run.leases.lease();
      if (now != null && run.leases.holds(now)) {
        // A new lease; or the same, renewed in time on the database's clock after this node's
        // own clock gave it up: what was let go meanwhile is released at the next claim.
        run.lease = now;
        run.idle = false;
        LOG.info(
            "Batch job {} instance {}: node {} rejoins the instance",
            run.job.name(),
            run.instance,
            now);
        return true;
      }
      pause(IDLE.delay(misses++));
    }
    return false;
  }

  /**
   * Whether this node loads the input now and {@link #holdsWhatItLoads() holds what it loads}: it
   * claims nothing until its loading ends (the blocks stored unclaimed are the other nodes'
   * meanwhile).
   */
  private boolean loadingHere() {
    Thread loading = loader;
    return holdsWhatItLoads() && loading != null && loading.isAlive();
  }

  /** Starts loading the input on a thread of its own when no other node with a live lease does. */
  private void takeLoading() {
    if (loader != null && loader.isAlive()) {
      return;
    }
    if (run.job.input() instanceof MessageInput) {
      // A node that joined a job started from a message has no records to load: only the node
      // the message came to (or the message delivered again) can give them.
      return;
    }
    if (run.inputRead || !run.store.takeLoading(run.instance, run.lease)) {
      return;
    }
    loader =
        Thread.ofPlatform()
            .name("sluice-batch-" + run.job.name() + "-" + run.instance + "-loader")
            .daemon(true)
            .start(this::load);
  }

  /**
   * Loads the input from the stored position; a store out of reach pauses the loading, which then
   * reads again from the position stored (blocks stored before are not stored twice).
   */
  private void load() {
    try {
      loadUntilRead();
    } finally {
      loadEnded.release();
    }
  }

  private void loadUntilRead() {
    int failures = 0;
    while (!run.inputRead && run.mayDispatch()) {
      try {
        long position = run.store.find(run.instance).orElseThrow().inputPosition();
        LOG.info(
            "Batch job {} instance {}: node {} loads its input from position {}",
            run.job.name(),
            run.instance,
            run.lease,
            position);
        run.loading.load(position);
        failures = 0;
        if (run.inputRead && run.job.input() instanceof MessageRecords records) {
          // The message's records are all stored: the flow that started the job goes on now, not
          // when the nodes are through.
          records.loadEnded(true, run.loaded.get());
        }
      } catch (RoleLostException e) {
        LOG.warn("Batch job {}: {}", run.job.name(), e.getMessage());
        return;
      } catch (RuntimeException | Error e) {
        if (!SqlStates.retryable(e)) {
          run.fail(e);
          return;
        }
        run.unreachable(e);
        pause(OUTAGE.delay(failures++));
      }
    }
  }

  /**
   * What the loader stores next: {@code placed} blocks claimed by this node on places it took
   * already, {@code waiting} more claimed by it that wait in its memory for a place (only a loader
   * that {@link #holdsWhatItLoads() holds what it loads}), then {@code unclaimed} blocks for any
   * node's claim. None: the run stops.
   */
  record Room(int placed, int waiting, int unclaimed) {

    /** How many blocks the loader reads now. */
    int blocks() {
      return placed + waiting + unclaimed;
    }
  }

  /**
   * Whether this node, while it loads, runs every block it loads from memory, except those it
   * stores for the other nodes, and claims none: not for a job with an output file (its file is
   * written in block order, so the blocks kept for other nodes cannot wait for the loading's end:
   * alone, a node would hold every later block until then), nor for one started by a message (the
   * message's records are all stored before its flow goes on, so its loader cannot wait for
   * places).
   */
  boolean holdsWhatItLoads() {
    BatchInput input = run.job.input();
    return run.job.output() == null
        && !(input instanceof MessageRecords)
        && !(input instanceof MessageInput);
  }

  /**
   * Plans the loader's next {@code most} blocks: this node's free places first (taken here, before
   * the blocks are read, so that a group still being committed does not count them twice, and only
   * while none of its blocks handed over waits for a place: {@code waiting}), then as many
   * unclaimed as keep {@link #AHEAD} stored blocks waiting for the other nodes' claims ({@code
   * pending} of them handed over to be stored and not stored yet), and the rest claimed by this
   * node when it holds what it loads; else it waits while {@link #AHEAD} wait. The records of a
   * message that started the job are stored unclaimed without waiting, as many as they are.
   */
  Room awaitRoomToLoad(
      int most, java.util.function.IntSupplier pending, java.util.function.IntSupplier waiting) {
    int misses = 0;
    while (run.mayDispatch()) {
      int placed = 0;
      // Places are taken only while no block of this node waits for one in the store thread's
      // hands: a group holding places queued behind a waiting block would keep them from it, and
      // with every place held so, nothing would move again.
      while (placed < most && waiting.getAsInt() == 0 && run.slots.tryAcquire()) {
        placed++;
      }
      if (placed == most) {
        return new Room(placed, 0, 0);
      }
      if (run.job.input() instanceof MessageRecords) {
        // The message's records are in memory already, and its flow waits until they are all
        // stored: they are stored at once, whatever waits ahead.
        return new Room(placed, 0, most - placed);
      }
      long ahead;
      try {
        ahead = run.store.claimable(run.instance, AHEAD) + pending.getAsInt();
      } catch (RuntimeException e) {
        run.slots.release(placed);
        throw e;
      }
      int unclaimed = (int) Math.max(0, Math.min(most - placed, AHEAD - ahead));
      if (holdsWhatItLoads()) {
        return new Room(placed, most - placed - unclaimed, unclaimed);
      }
      if (placed + unclaimed > 0) {
        return new Room(placed, 0, unclaimed);
      }
      // This node's claims free places as its blocks go through; the other nodes' are seen at the
      // next look.
      awaitSlot(IDLE.delay(misses++));
    }
    return new Room(0, 0, 0);
  }

  /**
   * Notes that block {@code number} left this run unmoved, still held under the run's lease: it is
   * let go at the next claim (or when the store answers again), so that a node runs it.
   */
  void drop(long number) {
    dropped.add(number);
  }

  private void releaseDropped() {
    if (dropped.isEmpty()) {
      return;
    }
    List<Long> numbers = new java.util.ArrayList<>();
    for (Long number = dropped.poll(); number != null; number = dropped.poll()) {
      numbers.add(number);
    }
    try {
      for (int from = 0; from < numbers.size(); from += 100) {
        run.store.release(
            run.instance, run.lease, numbers.subList(from, Math.min(numbers.size(), from + 100)));
      }
    } catch (RuntimeException e) {
      dropped.addAll(numbers); // again at the next look
      throw e;
    }
  }

  /**
   * A claim or a load of this node failed without knowing whether its commit went through: the
   * blocks it may have taken are looked for at the next claim.
   */
  void uncertain() {
    uncertain = true;
  }

  /**
   * After a claim or a load whose outcome was not known: lets go of the blocks the store holds for
   * this node's lease that the node does not have in memory (a commit that went through while its
   * answer was lost). Without this they would wait until the lease lapses, which, the node living
   * on, it never does.
   */
  private void releaseUnknown() {
    if (!uncertain) {
      return;
    }
    uncertain = false;
    try {
      int released = run.store.releaseAllBut(run.instance, run.lease, List.copyOf(run.mine));
      if (released > 0) {
        LOG.info(
            "Batch job {} instance {}: node {} let go of {} block(s) a commit whose answer was lost"
                + " had taken for it",
            run.job.name(),
            run.instance,
            run.lease,
            released);
      }
    } catch (RuntimeException e) {
      uncertain = true; // again at the next look
      throw e;
    }
  }

  /** Waits up to {@code delay} for {@code signal}, then forgets the signals given meanwhile. */
  private void await(Semaphore signal, Duration delay) {
    try {
      signal.tryAcquire(delay.toNanos(), TimeUnit.NANOSECONDS);
      signal.drainPermits();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      run.stopping = true;
    }
  }

  private void awaitSlot() {
    awaitSlot(Duration.ofMillis(200));
  }

  /** Waits up to {@code delay} for a free place of this node, leaving it free. */
  private void awaitSlot(Duration delay) {
    try {
      if (run.slots.tryAcquire(delay.toNanos(), TimeUnit.NANOSECONDS)) {
        run.slots.release();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      run.stopping = true;
    }
  }

  private void pause(Duration delay) {
    try {
      Thread.sleep(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      run.stopping = true;
    }
  }

  /**
   * Ends this node's part: blocks it still holds (left at a step by a stop) and the loading, if it
   * had it, are let go, so that a resume or another node takes them at once rather than once its
   * lease lapses (which, the node living on, it may never do).
   */
  void end() {
    if (!run.holdsLease()) {
      return;
    }
    try {
      run.store.release(run.instance, run.lease);
      run.store.releaseLoading(run.instance, run.lease);
    } catch (RuntimeException e) {
      LOG.warn(
          "Batch job {} instance {}: node {} could not let go of its blocks ({}); they are"
              + " claimable once its lease lapses",
          run.job.name(),
          run.instance,
          run.lease,
          BatchRun.describe(e));
    }
  }
}
