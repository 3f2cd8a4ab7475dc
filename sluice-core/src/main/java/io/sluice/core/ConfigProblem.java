package io.sluice.core;

/**
 * One broken configuration rule.
 *
 * @param path where, as a dotted path from the root ({@code flows[0].strategy.maxThreadsActive})
 * @param value the offending value as written, or null when a key is missing
 * @param rule the rule it breaks, in words
 * @param source where the value came from ({@code app.yaml:12:5}), or null for the Java API
 */
public record ConfigProblem(String path, Object value, String rule, String source) {

  /** A problem found through the Java API, with no file position. */
  public static ConfigProblem of(String path, Object value, String rule) {
    return new ConfigProblem(path, value, rule, null);
  }

  /** The same problem, located in a file. */
  public ConfigProblem at(String newSource) {
    return new ConfigProblem(path, value, rule, newSource);
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    if (source != null) {
      text.append(source).append(": ");
    }
    text.append(path).append(": ");
    if (value != null) {
      text.append("value '").append(value).append("' ");
    }
    return text.append(rule).toString();
  }
}
