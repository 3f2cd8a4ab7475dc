package io.sluice.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects the problems a builder finds while it validates, so that {@code build()} can report
 * every one of them at once instead of stopping at the first.
 */
public final class ConfigProblems {

  /**
   * The longest duration a setting takes unless its rule says otherwise: one day. A timeout, an
   * interval or a backoff beyond it is a typo, and far beyond it a conversion to milliseconds or
   * nanoseconds overflows.
   */
  public static final Duration MAX_DURATION = Duration.ofDays(1);

  private final List<ConfigProblem> problems = new ArrayList<>();

  /** Records a problem when {@code ok} is false; returns {@code ok}. */
  public boolean check(boolean ok, String path, Object value, String rule) {
    if (!ok) {
      problems.add(ConfigProblem.of(path, value, rule));
    }
    return ok;
  }

  /**
   * Records a problem when {@code value} is above {@code max}, an upper bound that keeps sums and
   * products of settings far from overflowing; returns whether it is within.
   */
  public boolean atMost(String path, long value, long max) {
    return check(value <= max, path, value, "must be at most " + max);
  }

  /**
   * Records a problem when {@code value} is longer than {@code max} (a null value is left to the
   * other rules); returns whether it is within. Compares without converting, so a duration of
   * millions of days is reported, not overflowed.
   */
  public boolean atMost(String path, Duration value, Duration max) {
    return check(
        value == null || value.compareTo(max) <= 0,
        path,
        value,
        "must be at most " + text(max) + " (" + max + ")");
  }

  /** A duration as a configuration file writes it: {@code 24h}, {@code 90s}, {@code 250ms}. */
  public static String text(Duration value) {
    long millis = value.toMillis();
    if (millis % 3_600_000 == 0) {
      return millis / 3_600_000 + "h";
    }
    if (millis % 60_000 == 0) {
      return millis / 60_000 + "m";
    }
    return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
  }

  /** Records a problem. */
  public void add(ConfigProblem problem) {
    problems.add(problem);
  }

  /** Records every problem of a nested configuration, with its paths prefixed. */
  public void addAll(String prefix, ConfigurationException nested) {
    for (ConfigProblem p : nested.problems()) {
      problems.add(new ConfigProblem(prefix + "." + p.path(), p.value(), p.rule(), p.source()));
    }
  }

  /** Whether nothing was recorded. */
  public boolean isEmpty() {
    return problems.isEmpty();
  }

  /** Throws a {@link ConfigurationException} listing every problem, if there is any. */
  public void throwIfAny() {
    if (!problems.isEmpty()) {
      throw new ConfigurationException(problems);
    }
  }
}
