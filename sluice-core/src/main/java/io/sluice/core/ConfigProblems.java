package io.sluice.core;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects the problems a builder finds while it validates, so that {@code build()} can report
 * every one of them at once instead of stopping at the first.
 */
public final class ConfigProblems {

  private final List<ConfigProblem> problems = new ArrayList<>();

  /** Records a problem when {@code ok} is false; returns {@code ok}. */
  public boolean check(boolean ok, String path, Object value, String rule) {
    if (!ok) {
      problems.add(ConfigProblem.of(path, value, rule));
    }
    return ok;
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
