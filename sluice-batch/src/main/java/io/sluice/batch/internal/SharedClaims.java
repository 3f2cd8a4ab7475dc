package io.sluice.batch.internal;

import io.sluice.batch.BatchState;
import io.sluice.core.Backoff;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run on a store several nodes share (PostgreSQL): every node that runs the instance claims its
 * blocks, a few at a time, under its node lease ({@code FOR UPDATE SKIP LOCKED}), and every move of
 * a claimed block is fenced by that lease, so a node that wakes after its lease lapsed commits
 * nothing. One node at a time loads the input (under the same lease: another takes the loading over
 * from the stored position once it lapses), storing blocks no node holds, at most {@link #AHEAD}
 * unclaimed ahead of the nodes. A node whose blocks are all through, while other nodes still hold
 * some, waits: if one of them dies, its blocks are claimable once its lease lapses.
 */
final class SharedClaims {

  private static final Logger LOG = LoggerFactory.getLogger(BatchRun.class);

  /** The most blocks one claim takes: small sets, so that every node gets its share. */
  static final int CLAIM = 8;

  /** How many stored blocks no node holds before the loader waits for the nodes to claim some. */
  static final int AHEAD = 64;

  /** The pause of a node that found nothing to claim: 5 ms doubled up to 200 ms. */
  private static final Backoff IDLE =
      Backoff.doubling(Duration.ofMillis(5), Duration.ofMillis(200));

  private final BatchRun run;
  private volatile Thread loader;

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
    boolean worked = at.loading() || at.blocks() > at.claimable();
    if (live && worked) {
      LOG.info(
          "Batch job {} instance {}: node {} joins the nodes running it",
          run.job.name(),
          run.instance,
          run.lease);
    } else {
      run.store.resumed(run.instance, run.job.keepFailedRecords());
    }
  }

  /** Claims and runs blocks (loading the input when no other node does) until the instance ends. */
  void run() {
    int misses = 0;
    while (run.mayDispatch()) {
      takeLoading();
      int room = Math.min(CLAIM, run.slots.availablePermits());
      if (room == 0) {
        awaitSlot();
        continue;
      }
      List<BlockStore.Block> claimed = run.store.claim(run.instance, run.lease, room);
      if (!claimed.isEmpty()) {
        misses = 0;
        run.idle = false;
        for (BlockStore.Block block : claimed) {
          if (block.unreadable() == null) {
            run.dispatch(block);
          } else {
            run.loading.dropUnreadable(block);
          }
        }
        continue;
      }
      BlockStore.Shared at = run.store.shared(run.instance);
      run.failed.accumulateAndGet(failedOf(), Math::max);
      if (at.finished()) {
        run.inputRead = true;
        break;
      }
      if (at.stopRequested() || at.state() == BatchState.STOPPED) {
        run.stopping = true;
        break;
      }
      if (at.inputDone() && at.claimable() == 0) {
        // Nothing left to claim: what this node's aggregators hold goes to their sinks now, or the
        // nodes would wait for each other's last groups.
        run.idle = true;
        run.maybeFinish();
      }
      pause(IDLE.delay(misses++));
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

  private long failedOf() {
    return run.store.find(run.instance).map(InstanceTable.Instance::failed).orElse(0L);
  }

  /** Starts loading the input on a thread of its own when no other node with a live lease does. */
  private void takeLoading() {
    if (loader != null && loader.isAlive()) {
      return;
    }
    if (run.inputRead || !run.store.takeLoading(run.instance, run.lease)) {
      return;
    }
    long position = run.store.find(run.instance).orElseThrow().inputPosition();
    LOG.info(
        "Batch job {} instance {}: node {} loads its input from position {}",
        run.job.name(),
        run.instance,
        run.lease,
        position);
    loader =
        Thread.ofPlatform()
            .name("sluice-batch-" + run.job.name() + "-" + run.instance + "-loader")
            .daemon(true)
            .start(
                () -> {
                  try {
                    run.loading.load(position);
                  } catch (LoadingLostException e) {
                    LOG.warn("Batch job {}: {}", run.job.name(), e.getMessage());
                  } catch (RuntimeException | Error e) {
                    run.fail(e);
                  }
                });
  }

  /**
   * Waits, as the loader, until fewer than {@link #AHEAD} stored blocks wait for a node to claim
   * them (or the run stops).
   */
  void awaitRoomToLoad() {
    int misses = 0;
    while (run.mayDispatch()) {
      BlockStore.Shared at = run.store.shared(run.instance);
      if (at.claimable() < AHEAD) {
        return;
      }
      pause(IDLE.delay(misses++));
    }
  }

  private void awaitSlot() {
    try {
      if (run.slots.tryAcquire(200, TimeUnit.MILLISECONDS)) {
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
   * Ends this node's part: blocks it still holds (left at a step by a stop) are let go, so that a
   * resume or another node claims them at once rather than once its lease lapses.
   */
  void end() {
    if (!run.holdsLease()) {
      return;
    }
    try {
      run.store.release(run.instance, run.lease);
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
