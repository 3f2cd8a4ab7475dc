package io.sluice.jobs;

import io.sluice.core.Backoff;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigProblems;
import io.sluice.core.ConfigurationException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;

/**
 * How one executor node runs jobs: its id, how many jobs run at once and how many more it claims
 * ahead, its lease, its wake-ups and the retry backoff. Immutable; made by {@link #builder()},
 * which checks every rule at {@link Builder#build()} and reports all broken ones at once.
 *
 * @param nodeId the node's id in the database: unique among the nodes sharing it
 * @param concurrency jobs running at once (each on a virtual thread)
 * @param prefetch jobs claimed beyond {@code concurrency}, ready to start when one ends
 * @param leaseDuration how long the node's lease lasts after each renewal, on the database's clock
 * @param heartbeatInterval how often the lease is renewed and lapsed nodes' jobs reclaimed
 * @param safetyPoll how often an idle node looks for due jobs when nothing woke it (±20% jitter)
 * @param retryBackoff the wait before the first retry of a failed job
 * @param maxRetryBackoff the longest wait between retries
 * @param backoffFactor how much each retry's wait grows
 * @param depthInterval how often the waiting jobs are counted per type (metrics, warnings)
 * @param shutdownTimeout how long a stop waits for running jobs before interrupting them
 * @param acquisition how jobs are claimed: {@code skip-locked} (default) or {@code optimistic}
 * @param jobsPerCycle {@code optimistic}: candidates selected per acquisition cycle at backoff
 *     level 0 ({@code skip-locked} claims all the free room in one statement)
 * @param maxJobsPerCycle {@code optimistic}: candidates per cycle at the highest backoff level
 * @param acquisitionBackoff {@code optimistic}: the wait after a cycle with lock failures at
 *     backoff level 1; zero for none (then each cycle selects {@code jobsPerCycle})
 * @param maxAcquisitionBackoff {@code optimistic}: the longest wait after lock failures
 * @param acquisitionBackoffFactor {@code optimistic}: how much the wait and the candidates per
 *     cycle grow with each backoff level
 * @param acquisitionBackoffDecreaseThreshold {@code optimistic}: how many cycles without lock
 *     failures in a row lower the backoff level by one (Camunda 7's {@code
 *     backoffDecreaseThreshold})
 * @param idleWait the wait after a claim that found fewer jobs than it had room for, growing with
 *     each claim in a row that found none (Camunda 7's {@code waitTimeInMillis}); zero for none:
 *     then the safety poll bounds that wait. A notification or a job coming due ends it earlier
 * @param maxIdleWait the longest such wait (Camunda 7's {@code maxWait})
 * @param idleWaitFactor how much the wait grows after each claim in a row that found no job
 *     (Camunda 7's {@code waitIncreaseFactor})
 */
public record JobExecutorConfig(
    String nodeId,
    int concurrency,
    int prefetch,
    Duration leaseDuration,
    Duration heartbeatInterval,
    Duration safetyPoll,
    Duration retryBackoff,
    Duration maxRetryBackoff,
    double backoffFactor,
    Duration depthInterval,
    Duration shutdownTimeout,
    Acquisition acquisition,
    int jobsPerCycle,
    int maxJobsPerCycle,
    Duration acquisitionBackoff,
    Duration maxAcquisitionBackoff,
    double acquisitionBackoffFactor,
    int acquisitionBackoffDecreaseThreshold,
    Duration idleWait,
    Duration maxIdleWait,
    double idleWaitFactor) {

  /**
   * The most jobs a node runs at once, and the most it claims ahead: ten thousand each, so that
   * their sum and the claim sizes made from them stay far from overflowing an int.
   */
  public static final int MAX_JOBS = 10_000;

  /** The largest growth factor of retry and acquisition backoffs and of the idle wait. */
  public static final double MAX_FACTOR = 100;

  /** The most clean cycles that may be asked for before the backoff level drops. */
  public static final int MAX_DECREASE_THRESHOLD = 1_000_000;

  /** Every setting at its default; the node id made from the host name and process id. */
  public static JobExecutorConfig defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** This configuration with {@code value} as its node id (checked as {@link Builder#build()}). */
  public JobExecutorConfig withNodeId(String value) {
    if (value == null || value.isBlank()) {
      throw new ConfigurationException(
          ConfigProblem.of("sluice.jobs.nodeId", value, "must not be blank"));
    }
    return new JobExecutorConfig(
        value,
        concurrency,
        prefetch,
        leaseDuration,
        heartbeatInterval,
        safetyPoll,
        retryBackoff,
        maxRetryBackoff,
        backoffFactor,
        depthInterval,
        shutdownTimeout,
        acquisition,
        jobsPerCycle,
        maxJobsPerCycle,
        acquisitionBackoff,
        maxAcquisitionBackoff,
        acquisitionBackoffFactor,
        acquisitionBackoffDecreaseThreshold,
        idleWait,
        maxIdleWait,
        idleWaitFactor);
  }

  /**
   * The node id used unless one is set: the host name and the process id ({@code host-4242}).
   * Asking for the host name may wait for DNS (seconds where the host's own name does not resolve),
   * so it is only asked for when a node is made.
   */
  public static String defaultNodeId() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "localhost";
    }
    return host + "-" + ManagementFactory.getRuntimeMXBean().getPid();
  }

  /** The wait before retry number {@code retry} (1 for the first): grows, capped. */
  public Duration backoff(int retry) {
    return new Backoff(retryBackoff, backoffFactor, maxRetryBackoff).delay(retry - 1);
  }

  /**
   * How many free places (running slots and prefetch) the node waits for before it claims, so that
   * one claim and one completion statement serve several jobs: three quarters of the prefetch, at
   * least 1; the quarter still held keeps the running slots busy during the claim. A node with an
   * idle running slot and nothing waiting for it claims at once.
   */
  public int claimBatch() {
    return Math.max(1, prefetch - prefetch / 4);
  }

  /** Whether {@code optimistic} acquisition backs off after lock failures. */
  public boolean backsOff() {
    return !acquisitionBackoff.isZero();
  }

  /**
   * The {@code optimistic} wait after lock failures at backoff {@code level} (1 and up): {@code
   * acquisitionBackoff × factor^(level−1)}, capped at {@code maxAcquisitionBackoff}.
   */
  public Duration acquisitionBackoff(int level) {
    return new Backoff(acquisitionBackoff, acquisitionBackoffFactor, maxAcquisitionBackoff)
        .delay(level - 1);
  }

  /**
   * The {@code optimistic} candidates per cycle at backoff {@code level} (0 and up): {@code
   * jobsPerCycle × factor^level}, capped at {@code maxJobsPerCycle}; always {@code jobsPerCycle}
   * without backoff.
   */
  public int jobsPerCycle(int level) {
    if (!backsOff()) {
      return jobsPerCycle;
    }
    double grown = jobsPerCycle * Math.pow(acquisitionBackoffFactor, Math.max(0, level));
    return grown >= maxJobsPerCycle ? maxJobsPerCycle : (int) Math.round(grown);
  }

  /** Whether a claim that comes back short waits the growing idle wait, not the safety poll. */
  public boolean idleWaits() {
    return !idleWait.isZero();
  }

  /**
   * The wait after a claim that found fewer jobs than it had room for, {@code empty} being how many
   * claims in a row found none (0 when this one found some): {@code idleWait × factor^(empty−1)},
   * capped at {@code maxIdleWait}; so the first empty claim waits {@code idleWait}, as does one
   * that found some.
   */
  public Duration idleWait(int empty) {
    return new Backoff(idleWait, idleWaitFactor, maxIdleWait).delay(empty - 1);
  }

  /** Builds a {@link JobExecutorConfig}; {@link #build()} checks every rule. */
  public static final class Builder {
    private String nodeId;
    private int concurrency = 16;
    private Integer prefetch;
    private Duration leaseDuration = Duration.ofSeconds(6);
    private Duration heartbeatInterval = Duration.ofSeconds(2);
    private Duration safetyPoll = Duration.ofSeconds(30);
    private Duration retryBackoff = Duration.ofSeconds(1);
    private Duration maxRetryBackoff = Duration.ofMinutes(10);
    private double backoffFactor = 2.0;
    private Duration depthInterval = Duration.ofSeconds(10);
    private Duration shutdownTimeout = Duration.ofSeconds(30);
    private Acquisition acquisition = Acquisition.SKIP_LOCKED;
    private int jobsPerCycle = 3;
    private int maxJobsPerCycle = 48;
    private Duration acquisitionBackoff = Duration.ZERO;
    private Duration maxAcquisitionBackoff = Duration.ofMillis(250);
    private double acquisitionBackoffFactor = 2.0;
    private int acquisitionBackoffDecreaseThreshold = 100;
    private Duration idleWait = Duration.ZERO;
    private Duration maxIdleWait = Duration.ofMinutes(1);
    private double idleWaitFactor = 2.0;

    private Builder() {}

    /** The node's id (host name and process id unless set). */
    public Builder nodeId(String value) {
      this.nodeId = value;
      return this;
    }

    /** Jobs running at once (16 unless set). */
    public Builder concurrency(int value) {
      this.concurrency = value;
      return this;
    }

    /**
     * Jobs claimed ahead of a free slot (as many as the concurrency, at least 2, unless set): they
     * start as running jobs end, and let claims come in batches. For jobs that run for minutes, set
     * it low, so that waiting jobs go to idle nodes rather than wait behind running ones.
     */
    public Builder prefetch(int value) {
      this.prefetch = value;
      return this;
    }

    /** The lease (6 s unless set); a lapsed node's jobs are reclaimed within lease + heartbeat. */
    public Builder leaseDuration(Duration value) {
      this.leaseDuration = value;
      return this;
    }

    /** How often the lease is renewed (2 s unless set); at most half the lease. */
    public Builder heartbeatInterval(Duration value) {
      this.heartbeatInterval = value;
      return this;
    }

    /** How often an idle node looks for due jobs unwoken (30 s unless set). */
    public Builder safetyPoll(Duration value) {
      this.safetyPoll = value;
      return this;
    }

    /** The first retry's wait (1 s unless set). */
    public Builder retryBackoff(Duration value) {
      this.retryBackoff = value;
      return this;
    }

    /** The longest wait between retries (10 min unless set). */
    public Builder maxRetryBackoff(Duration value) {
      this.maxRetryBackoff = value;
      return this;
    }

    /** How much each retry's wait grows (2 unless set). */
    public Builder backoffFactor(double value) {
      this.backoffFactor = value;
      return this;
    }

    /** How often waiting jobs are counted per type (10 s unless set). */
    public Builder depthInterval(Duration value) {
      this.depthInterval = value;
      return this;
    }

    /** How long a stop waits for running jobs (30 s unless set). */
    public Builder shutdownTimeout(Duration value) {
      this.shutdownTimeout = value;
      return this;
    }

    /** How jobs are claimed ({@link Acquisition#SKIP_LOCKED} unless set). */
    public Builder acquisition(Acquisition value) {
      this.acquisition = value;
      return this;
    }

    /** {@code optimistic}: candidates per cycle at backoff level 0 (3 unless set). */
    public Builder jobsPerCycle(int value) {
      this.jobsPerCycle = value;
      return this;
    }

    /** {@code optimistic}: candidates per cycle at most, as backoff grows (48 unless set). */
    public Builder maxJobsPerCycle(int value) {
      this.maxJobsPerCycle = value;
      return this;
    }

    /** {@code optimistic}: the first wait after lock failures (none unless set). */
    public Builder acquisitionBackoff(Duration value) {
      this.acquisitionBackoff = value;
      return this;
    }

    /** {@code optimistic}: the longest wait after lock failures (250 ms unless set). */
    public Builder maxAcquisitionBackoff(Duration value) {
      this.maxAcquisitionBackoff = value;
      return this;
    }

    /** {@code optimistic}: how the wait and the candidates per cycle grow (2 unless set). */
    public Builder acquisitionBackoffFactor(double value) {
      this.acquisitionBackoffFactor = value;
      return this;
    }

    /**
     * {@code optimistic}: how many cycles without lock failures in a row lower the backoff level by
     * one (100 unless set, as Camunda 7's {@code backoffDecreaseThreshold}).
     */
    public Builder acquisitionBackoffDecreaseThreshold(int value) {
      this.acquisitionBackoffDecreaseThreshold = value;
      return this;
    }

    /**
     * The wait after a claim that found fewer jobs than it had room for, growing with each claim in
     * a row that found none (none unless set: the safety poll bounds that wait).
     */
    public Builder idleWait(Duration value) {
      this.idleWait = value;
      return this;
    }

    /** The longest idle wait (1 min unless set). */
    public Builder maxIdleWait(Duration value) {
      this.maxIdleWait = value;
      return this;
    }

    /** How much the idle wait grows after each claim in a row that found no job (2 unless set). */
    public Builder idleWaitFactor(double value) {
      this.idleWaitFactor = value;
      return this;
    }

    /** The configuration; fails listing every broken rule. */
    public JobExecutorConfig build() {
      ConfigProblems problems = new ConfigProblems();
      String node = nodeId == null ? defaultNodeId() : nodeId;
      problems.check(!node.isBlank(), "sluice.jobs.nodeId", node, "must not be blank");
      if (problems.check(
          concurrency >= 1, "sluice.jobs.concurrency", concurrency, "must be at least 1")) {
        problems.atMost("sluice.jobs.concurrency", concurrency, MAX_JOBS);
      }
      int ahead = prefetch != null ? prefetch : Math.max(2, Math.min(concurrency, MAX_JOBS));
      if (problems.check(ahead >= 0, "sluice.jobs.prefetch", ahead, "must not be negative")) {
        problems.atMost("sluice.jobs.prefetch", ahead, MAX_JOBS);
      }
      positive(problems, "leaseDuration", leaseDuration);
      if (positive(problems, "heartbeatInterval", heartbeatInterval) && leaseDuration != null) {
        problems.check(
            heartbeatInterval.multipliedBy(2).compareTo(leaseDuration) <= 0,
            "sluice.jobs.heartbeatInterval",
            heartbeatInterval,
            "must be at most half of leaseDuration ("
                + leaseDuration
                + "), so one late heartbeat does not lapse the lease");
      }
      positive(problems, "safetyPoll", safetyPoll);
      positive(problems, "retryBackoff", retryBackoff);
      if (positive(problems, "maxRetryBackoff", maxRetryBackoff) && retryBackoff != null) {
        problems.check(
            maxRetryBackoff.compareTo(retryBackoff) >= 0,
            "sluice.jobs.maxRetryBackoff",
            maxRetryBackoff,
            "must be at least retryBackoff (" + retryBackoff + ")");
      }
      factor(problems, "backoffFactor", backoffFactor);
      positive(problems, "depthInterval", depthInterval);
      positive(problems, "shutdownTimeout", shutdownTimeout);
      problems.check(
          acquisition != null,
          "sluice.jobs.acquisition",
          null,
          "must be skip-locked or optimistic");
      if (problems.check(
          jobsPerCycle >= 1, "sluice.jobs.jobsPerCycle", jobsPerCycle, "must be at least 1")) {
        problems.atMost("sluice.jobs.jobsPerCycle", jobsPerCycle, MAX_JOBS);
      }
      if (problems.check(
          maxJobsPerCycle >= jobsPerCycle,
          "sluice.jobs.maxJobsPerCycle",
          maxJobsPerCycle,
          "must be at least jobsPerCycle (" + jobsPerCycle + ")")) {
        problems.atMost("sluice.jobs.maxJobsPerCycle", maxJobsPerCycle, MAX_JOBS);
      }
      boolean backoffSet =
          zeroOrPositive(problems, "acquisitionBackoff", acquisitionBackoff, "no backoff");
      if (positive(problems, "maxAcquisitionBackoff", maxAcquisitionBackoff) && backoffSet) {
        problems.check(
            maxAcquisitionBackoff.compareTo(acquisitionBackoff) >= 0,
            "sluice.jobs.maxAcquisitionBackoff",
            maxAcquisitionBackoff,
            "must be at least acquisitionBackoff (" + acquisitionBackoff + ")");
      }
      factor(problems, "acquisitionBackoffFactor", acquisitionBackoffFactor);
      if (problems.check(
          acquisitionBackoffDecreaseThreshold >= 1,
          "sluice.jobs.acquisitionBackoffDecreaseThreshold",
          acquisitionBackoffDecreaseThreshold,
          "must be at least 1")) {
        problems.atMost(
            "sluice.jobs.acquisitionBackoffDecreaseThreshold",
            acquisitionBackoffDecreaseThreshold,
            MAX_DECREASE_THRESHOLD);
      }
      boolean idleSet = zeroOrPositive(problems, "idleWait", idleWait, "no idle wait");
      if (positive(problems, "maxIdleWait", maxIdleWait) && idleSet) {
        problems.check(
            maxIdleWait.compareTo(idleWait) >= 0,
            "sluice.jobs.maxIdleWait",
            maxIdleWait,
            "must be at least idleWait (" + idleWait + ")");
      }
      factor(problems, "idleWaitFactor", idleWaitFactor);
      problems.throwIfAny();
      return new JobExecutorConfig(
          node,
          concurrency,
          ahead,
          leaseDuration,
          heartbeatInterval,
          safetyPoll,
          retryBackoff,
          maxRetryBackoff,
          backoffFactor,
          depthInterval,
          shutdownTimeout,
          acquisition,
          jobsPerCycle,
          maxJobsPerCycle,
          acquisitionBackoff,
          maxAcquisitionBackoff,
          acquisitionBackoffFactor,
          acquisitionBackoffDecreaseThreshold,
          idleWait,
          maxIdleWait,
          idleWaitFactor);
    }

    /**
     * Whether {@code value} is from 1 ms to a day; compared, never converted, so none overflows.
     */
    private static boolean positive(ConfigProblems problems, String key, Duration value) {
      return problems.check(
              value != null && value.compareTo(Duration.ofMillis(1)) >= 0,
              "sluice.jobs." + key,
              value,
              "must be a duration of at least 1 ms")
          && problems.atMost("sluice.jobs." + key, value, ConfigProblems.MAX_DURATION);
    }

    /**
     * Whether {@code value} is zero ({@code zero} says what that means) or from 1 ms to a day: a
     * wait of less than a millisecond would be no wait, and the loop would spin.
     */
    private static boolean zeroOrPositive(
        ConfigProblems problems, String key, Duration value, String zero) {
      return problems.check(
              value != null && (value.isZero() || value.compareTo(Duration.ofMillis(1)) >= 0),
              "sluice.jobs." + key,
              value,
              "must be zero (" + zero + ") or a duration of at least 1 ms")
          && problems.atMost("sluice.jobs." + key, value, ConfigProblems.MAX_DURATION);
    }

    private static void factor(ConfigProblems problems, String key, double value) {
      problems.check(
          value >= 1.0 && value <= MAX_FACTOR,
          "sluice.jobs." + key,
          value,
          "must be from 1 to " + (int) MAX_FACTOR);
    }
  }
}
