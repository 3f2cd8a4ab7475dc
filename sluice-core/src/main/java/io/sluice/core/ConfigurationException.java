package io.sluice.core;

import java.util.List;
import java.util.stream.Collectors;

/** A configuration that breaks one or more rules; it lists every problem at once. */
public class ConfigurationException extends SluiceException {

  private final List<ConfigProblem> problems;

  /** An exception listing these problems (at least one). */
  public ConfigurationException(List<ConfigProblem> problems) {
    super(describe(problems));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a configuration exception needs at least one problem");
    }
    this.problems = List.copyOf(problems);
  }

  /** An exception for a single problem. */
  public ConfigurationException(ConfigProblem problem) {
    this(List.of(problem));
  }

  /** Every problem found, in the order found. */
  public List<ConfigProblem> problems() {
    return problems;
  }

  private static String describe(List<ConfigProblem> problems) {
    String header =
        problems.size() == 1
            ? "The configuration has 1 error:"
            : "The configuration has " + problems.size() + " errors:";
    return problems.stream()
        .map(p -> "  - " + p)
        .collect(Collectors.joining(System.lineSeparator(), header + System.lineSeparator(), ""));
  }
}
