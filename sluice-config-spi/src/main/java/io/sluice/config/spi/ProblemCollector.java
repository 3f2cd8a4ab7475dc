package io.sluice.config.spi;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Collects every problem of one configuration file, each located in the file, so that they can all
 * be reported at once. Problems the core's builders raise while mapping are caught here and given
 * the path and line of the key they came from.
 */
public final class ProblemCollector {

  private final SourceMap sourceMap;
  private final List<ConfigProblem> problems = new ArrayList<>();

  /** A collector locating its problems with {@code sourceMap}. */
  public ProblemCollector(SourceMap sourceMap) {
    this.sourceMap = sourceMap;
  }

  /** Records a problem at {@code path}, located where that path was written. */
  public void add(String path, Object value, String rule) {
    add(new ConfigProblem(path, value, rule, null));
  }

  /**
   * Checks that {@code name}, written at {@code path}, is one of {@code known}: otherwise records
   * that it is not a {@code what} of this configuration, listing those it has. Returns whether it
   * is.
   */
  public boolean knownName(String path, String name, Collection<String> known, String what) {
    if (known.contains(name)) {
      return true;
    }
    add(
        path,
        name,
        known.isEmpty()
            ? "is not a " + what + " of this configuration, which has none"
            : "is not a "
                + what
                + " of this configuration; its "
                + what
                + "s: "
                + String.join(", ", new TreeSet<>(known)));
    return false;
  }

  /** Records a problem, located where its path was written unless it knows its position. */
  public void add(ConfigProblem problem) {
    ConfigProblem located =
        problem.source() != null ? problem : problem.at(sourceMap.locate(problem.path()));
    problems.add(
        located.path().isEmpty()
            ? new ConfigProblem(SourceMap.FILE, located.value(), located.rule(), located.source())
            : located);
  }

  /**
   * Runs {@code build}; if it fails with a {@link ConfigurationException}, records its problems
   * (their paths taken relative to {@code prefix}, "" when they are already absolute) and returns
   * null, so that mapping can go on and find the next problem.
   */
  public <T> T attempt(String prefix, Supplier<T> build) {
    return attempt(prefix, p -> prefix.isEmpty() ? p : SourceMap.child(prefix, p), build);
  }

  /**
   * Runs {@code build} as {@link #attempt(String, Supplier)} does, placing each problem of a {@link
   * ConfigurationException} at the path {@code where} makes of its own (a problem it maps to null
   * is dropped: it repeats one recorded already), and an {@link IllegalArgumentException} at {@code
   * at}.
   */
  public <T> T attempt(String at, UnaryOperator<String> where, Supplier<T> build) {
    try {
      return build.get();
    } catch (ConfigurationException e) {
      for (ConfigProblem p : e.problems()) {
        String path = where.apply(p.path());
        if (path != null) {
          add(new ConfigProblem(path, p.value(), p.rule(), null));
        }
      }
    } catch (IllegalArgumentException e) {
      add(at, null, e.getMessage());
    }
    return null;
  }

  /** Where {@code path} was written ({@code app.yaml:12:5}). */
  public String locate(String path) {
    return sourceMap.locate(path);
  }

  /** Whether no problem was recorded. */
  public boolean isEmpty() {
    return problems.isEmpty();
  }

  /** The problems recorded, in the order they were. */
  public List<ConfigProblem> problems() {
    return problems;
  }

  /**
   * Adds the problems found while mapping, except those the schema already explains: a mapping
   * problem at, above or below a path the schema rejected is a consequence of that rejection.
   */
  public void addUnexplained(List<ConfigProblem> mapping) {
    List<String> rejected = problems.stream().map(ConfigProblem::path).toList();
    for (ConfigProblem p : mapping) {
      if (rejected.stream().noneMatch(r -> related(r, p.path()))) {
        problems.add(p);
      }
    }
  }

  /** Throws every problem, sorted by position in the file, if there is any. */
  public void throwIfAny() {
    if (!problems.isEmpty()) {
      List<ConfigProblem> sorted = new ArrayList<>(problems);
      sorted.sort(
          Comparator.comparingInt((ConfigProblem p) -> number(p.source(), 1))
              .thenComparingInt(p -> number(p.source(), 2)));
      throw new ConfigurationException(sorted);
    }
  }

  private static boolean related(String a, String b) {
    return a.equals(b) || below(a, b) || below(b, a);
  }

  private static boolean below(String path, String ancestor) {
    return ancestor.isEmpty()
        || path.startsWith(ancestor)
            && (path.charAt(ancestor.length()) == '.' || path.charAt(ancestor.length()) == '[');
  }

  /** Line (part 1) or column (part 2) of {@code file:line:column}. */
  private static int number(String source, int part) {
    String[] parts = source.split(":");
    try {
      return Integer.parseInt(parts[parts.length - 3 + part]);
    } catch (RuntimeException e) {
      return 0;
    }
  }
}
