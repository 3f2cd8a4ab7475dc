package io.sluice.jobs.internal;

import io.sluice.jobs.JobExecutorConfig;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * How fast the acquisition loop claims, from what its last claims found: Camunda 7's backoff job
 * acquisition strategy, with Sluice's keys. Two levels move here:
 *
 * <ul>
 *   <li>the <b>backoff level</b> ({@code optimistic} only, when {@code acquisitionBackoff} is set):
 *       raised by a cycle with lock failures, lowered by one after {@code
 *       acquisitionBackoffDecreaseThreshold} cycles in a row without; it sets the wait after a
 *       collision and the candidates per cycle;
 *   <li>the <b>empty claims in a row</b> (both strategies, when {@code idleWait} is set): raised by
 *       a claim that found no job, cleared by one that found any (claimed, or lost to another
 *       node); it sets how long a claim that came back short waits, unless a notification or a job
 *       coming due ends the wait first.
 * </ul>
 *
 * The acquisition thread's alone: not thread-safe.
 */
final class AcquisitionPace {

  /** The highest either level goes: past it every wait is long at its maximum. */
  static final int MAX_LEVEL = 30;

  private final JobExecutorConfig config;
  private final UnaryOperator<Duration> jitter;
  private int backoffLevel;
  private int cleanInARow;
  private int emptyInARow;

  /**
   * The pace of a node with {@code config}, spreading the waits that need it with {@code jitter}.
   */
  AcquisitionPace(JobExecutorConfig config, UnaryOperator<Duration> jitter) {
    this.config = config;
    this.jitter = jitter;
  }

  /** {@code optimistic}: the candidates the next cycle selects, at most {@code room}. */
  int candidates(int room) {
    return Math.min(room, config.jobsPerCycle(backoffLevel));
  }

  /**
   * Notes what a claim found: {@code jobs} claimed or lost to another node. Any job clears the
   * empty claims in a row; none adds one.
   */
  void found(int jobs) {
    emptyInARow = jobs > 0 ? 0 : Math.min(MAX_LEVEL, emptyInARow + 1);
  }

  /**
   * Notes an {@code optimistic} cycle with lock failures; returns how long to wait before the next
   * one: with backoff configured, the level rises and its wait is returned (jittered, so that the
   * nodes that collided do not meet again); without, zero.
   */
  Duration collided() {
    cleanInARow = 0;
    if (!config.backsOff()) {
      return Duration.ZERO;
    }
    backoffLevel = Math.min(MAX_LEVEL, backoffLevel + 1);
    return jitter.apply(config.acquisitionBackoff(backoffLevel));
  }

  /**
   * Notes an {@code optimistic} cycle without lock failures: after {@code
   * acquisitionBackoffDecreaseThreshold} of them in a row the backoff level drops by one, and the
   * count starts again.
   */
  void clean() {
    if (backoffLevel == 0) {
      return; // nothing to lower; the next collision starts the count again anyway
    }
    cleanInARow++;
    if (cleanInARow >= config.acquisitionBackoffDecreaseThreshold()) {
      backoffLevel--;
      cleanInARow = 0;
    }
  }

  /**
   * The longest wait after a claim that came back short (a job due sooner or a notification ends it
   * earlier): the idle wait for the empty claims in a row when it is configured, else the jittered
   * safety poll.
   */
  Duration idleBound() {
    return config.idleWaits() ? config.idleWait(emptyInARow) : jitter.apply(config.safetyPoll());
  }

  int backoffLevel() {
    return backoffLevel;
  }

  int emptyInARow() {
    return emptyInARow;
  }
}
