package io.sluice.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code --name value} options of a scenario benchmark's main, read by name with a default. A
 * name given but never read is a typo: {@link #requireAllRead()} says which.
 */
public final class CommandLineOptions {

  private final Map<String, String> values;
  private final Set<String> read = new TreeSet<>();

  private CommandLineOptions(Map<String, String> values) {
    this.values = values;
  }

  /** Reads {@code --name value} pairs; fails on anything else. */
  public static CommandLineOptions parse(String[] args) {
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("options come as --name value; got " + args[i]);
      }
      values.put(args[i].substring(2), args[++i]);
    }
    return new CommandLineOptions(values);
  }

  /** The value of {@code --name}, or {@code otherwise}. */
  public String string(String name, String otherwise) {
    read.add(name);
    return values.getOrDefault(name, otherwise);
  }

  /** The value of {@code --name} as an int, or {@code otherwise}. */
  public int integer(String name, int otherwise) {
    return Integer.parseInt(string(name, String.valueOf(otherwise)));
  }

  /** The value of {@code --name} as a double, or {@code otherwise}. */
  public double decimal(String name, double otherwise) {
    return Double.parseDouble(string(name, String.valueOf(otherwise)));
  }

  /** The comma-separated values of {@code --name}, or those of {@code otherwise}. */
  public List<String> list(String name, String otherwise) {
    return List.of(string(name, otherwise).split(","));
  }

  /** Fails naming the options given that nothing read: most likely misspelled. */
  public void requireAllRead() {
    Set<String> unknown = new TreeSet<>(values.keySet());
    unknown.removeAll(read);
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown options " + unknown + "; known: " + read);
    }
  }
}
