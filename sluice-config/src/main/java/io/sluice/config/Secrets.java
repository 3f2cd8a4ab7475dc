package io.sluice.config;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The process-wide registry of secret values: each value a {@code ${secret:...}} placeholder
 * resolved to, registered while a configuration file is read, and the one thing every masking point
 * consults (the problems of a configuration, the {@code sluice} command's log lines and error
 * messages, its {@code /metrics} page). A registered value is replaced by {@link #MASK} wherever it
 * appears in a text given to {@link #mask}, whatever its length.
 *
 * <p>It is global on purpose: log encoders and the management server are made by other code than
 * the one that read the file, and a secret stays secret for the life of the process, so values are
 * never removed. While none is registered, {@link #mask} costs one volatile read.
 */
public final class Secrets {

  /** What a secret value is replaced with. */
  public static final String MASK = "******";

  /** The registered values, longest first (so a value containing another is masked whole). */
  private static volatile String[] values = {};

  private Secrets() {}

  /** Registers {@code value} as secret; an empty value is not (it would match everywhere). */
  public static void register(String value) {
    if (value.isEmpty()) {
      return;
    }
    synchronized (Secrets.class) {
      String[] current = values;
      if (Arrays.asList(current).contains(value)) {
        return;
      }
      String[] next = Arrays.copyOf(current, current.length + 1);
      next[current.length] = value;
      Arrays.sort(next, Comparator.comparingInt(String::length).reversed());
      values = next;
    }
  }

  /** Whether any secret value is registered: when none is, nothing needs masking. */
  public static boolean any() {
    return values.length > 0;
  }

  /** {@code text} with every registered secret value in it replaced by {@link #MASK}. */
  public static String mask(String text) {
    String[] secrets = values;
    String masked = text;
    for (String secret : secrets) {
      if (masked.contains(secret)) {
        masked = masked.replace(secret, MASK);
      }
    }
    return masked;
  }

  /**
   * {@code e} itself when no secret appears in its problems, else the same problems with every
   * secret value in their values, rules and sources masked.
   */
  static ConfigurationException mask(ConfigurationException e) {
    if (!any()) {
      return e;
    }
    List<ConfigProblem> problems = e.problems().stream().map(Secrets::mask).toList();
    return problems.equals(e.problems()) ? e : new ConfigurationException(problems);
  }

  private static ConfigProblem mask(ConfigProblem p) {
    Object value = p.value();
    if (value != null) {
      String text = String.valueOf(value);
      String masked = mask(text);
      if (!masked.equals(text)) {
        value = masked;
      }
    }
    return new ConfigProblem(
        mask(p.path()), value, mask(p.rule()), p.source() == null ? null : mask(p.source()));
  }
}
