package io.sluice.core.logging;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.helpers.MessageFormatter;

/**
 * The log of one failure that may repeat for a long time (a store that is full, a database that is
 * gone, a flow that fails every file): the first failure of a run is logged whole at WARN, cause
 * included; the ones after it are counted, and at most once per interval a summary line says how
 * many came and what the last one was; the first success after failures is logged at INFO with
 * their count. A disk full for an hour is a handful of lines, not one per file per poll.
 *
 * <p>The summary is written by the failure that finds the interval over (there is no timer), and a
 * recovery writes what was still counted. Thread-safe; nothing is logged while holding its lock.
 */
public final class RepeatedFailureLog {

  /** The interval used unless another is given: 30 s. */
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(30);

  private final Logger log;
  private final String subject;
  private final Clock clock;
  private final Duration interval;
  private final ReentrantLock lock = new ReentrantLock();
  // Read without the lock by recovered(), which runs after every success of a hot path.
  private volatile boolean failing;
  private Instant since;
  private Instant windowStart;
  private long total;
  private long unreported;

  /**
   * A log writing to {@code log} about {@code subject} (what fails, as a summary starts: {@code
   * "Flow 'orders' failing on files of '/in'"}), at most one summary per {@code interval} by {@code
   * clock}.
   */
  public RepeatedFailureLog(Logger log, String subject, Clock clock, Duration interval) {
    this.log = Objects.requireNonNull(log, "log");
    this.subject = Objects.requireNonNull(subject, "subject");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (interval == null || !interval.isPositive()) {
      throw new IllegalArgumentException(
          "the summary interval of '" + subject + "' must be positive, was " + interval);
    }
    this.interval = interval;
  }

  /** A log about {@code subject} with the {@link #DEFAULT_INTERVAL}. */
  public RepeatedFailureLog(Logger log, String subject, Clock clock) {
    this(log, subject, clock, DEFAULT_INTERVAL);
  }

  /**
   * Notes one failure. {@code message} and {@code arguments} are as for {@link Logger#warn(String,
   * Object...)} (a last {@link Throwable} argument is the cause): the first failure of a run is
   * logged so; a later one only counts, and is the "last" of the next summary. Returns whether this
   * call logged anything.
   */
  public boolean failed(String message, Object... arguments) {
    Instant now = clock.instant();
    String text = MessageFormatter.arrayFormat(message, arguments).getMessage();
    long summarised;
    Duration window;
    lock.lock();
    try {
      total++;
      if (!failing) {
        failing = true;
        since = now;
        windowStart = now;
        unreported = 0;
        summarised = -1;
        window = Duration.ZERO;
      } else {
        unreported++;
        window = Duration.between(windowStart, now);
        if (window.compareTo(interval) < 0) {
          return false;
        }
        summarised = unreported;
        unreported = 0;
        windowStart = now;
      }
    } finally {
      lock.unlock();
    }
    if (summarised < 0) {
      log.warn(message, arguments);
    } else {
      log.warn(
          "{}: {} more time(s) in the last {}; the last: {}",
          subject,
          summarised,
          seconds(window),
          text);
    }
    return true;
  }

  /**
   * Notes a success: when failures came before it, logs at INFO that {@code subject} works again,
   * after how many failures over how long. Returns whether this call logged anything. Cheap when
   * nothing failed (one volatile read).
   */
  public boolean recovered() {
    if (!failing) {
      return false;
    }
    Instant now = clock.instant();
    long failures;
    long unsaid;
    Duration over;
    lock.lock();
    try {
      if (!failing) {
        return false;
      }
      failing = false;
      failures = total;
      unsaid = unreported;
      over = Duration.between(since, now);
      total = 0;
      unreported = 0;
    } finally {
      lock.unlock();
    }
    log.info(
        "{}: works again after {} failure(s) over {}{}",
        subject,
        failures,
        seconds(over),
        unsaid == 0 ? "" : " (" + unsaid + " since the last line)");
    return true;
  }

  /** Whether the last thing noted was a failure. */
  public boolean failing() {
    lock.lock();
    try {
      return failing;
    } finally {
      lock.unlock();
    }
  }

  /** What the log is about. */
  public String subject() {
    return subject;
  }

  private static String seconds(Duration duration) {
    long millis = duration.toMillis();
    return millis % 1000 == 0
        ? millis / 1000 + " s"
        : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
  }
}
