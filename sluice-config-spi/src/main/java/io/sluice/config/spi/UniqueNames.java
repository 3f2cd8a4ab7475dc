package io.sluice.config.spi;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The names given in one list of the file (flows, batch jobs, the steps of a job): a name given
 * twice is a problem at its second place, naming the first.
 */
public final class UniqueNames {

  private final String what;
  private final ProblemCollector problems;
  private final Map<String, String> firstPath = new LinkedHashMap<>();

  /**
   * Names of {@code what} ({@code flow}, {@code step}), their problems told to {@code problems}.
   */
  public UniqueNames(String what, ProblemCollector problems) {
    this.what = what;
    this.problems = problems;
  }

  /** Takes the name at {@code node}'s {@code name}; false (and a problem) when it was given. */
  public boolean add(ConfigNode node) {
    String name = node.text("name", null);
    ConfigNode nameNode = node.get("name");
    String earlier = name == null ? null : firstPath.putIfAbsent(name, nameNode.path());
    if (earlier == null) {
      return true;
    }
    problems.add(
        nameNode.path(),
        name,
        "must be unique; the "
            + what
            + " at "
            + earlier
            + " ("
            + problems.locate(earlier)
            + ") has this name too");
    return false;
  }

  /** The names taken, in order. */
  public Set<String> names() {
    return firstPath.keySet();
  }
}
