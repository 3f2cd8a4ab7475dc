package io.sluice.jobs;

import java.util.Arrays;
import java.util.Locale;

/** How a node claims jobs from the database it shares with other nodes. */
public enum Acquisition {
  /**
   * One statement claims every job it takes ({@code UPDATE … FOR UPDATE SKIP LOCKED … RETURNING};
   * on SQLite the single writer's {@code UPDATE … RETURNING}): nodes never collide, so no work is
   * wasted however many nodes share the database. The default.
   */
  SKIP_LOCKED("skip-locked"),

  /**
   * As Camunda 7 acquires: a plain {@code SELECT} of candidates, then one versioned {@code UPDATE}
   * per candidate; a candidate another node took first is a lock failure. Kept to compare with
   * (benchmark E5) and for databases without {@code SKIP LOCKED}; its acquisition backoff is the
   * published remedy for collisions.
   */
  OPTIMISTIC("optimistic");

  private final String key;

  Acquisition(String key) {
    this.key = key;
  }

  /** The name used in configuration files: {@code skip-locked} or {@code optimistic}. */
  public String key() {
    return key;
  }

  /** The strategy named {@code key} ({@code skip-locked} or {@code optimistic}), any case. */
  public static Acquisition of(String key) {
    String wanted = key == null ? "" : key.trim().toLowerCase(Locale.ROOT);
    return Arrays.stream(values())
        .filter(a -> a.key.equals(wanted) || a.name().equalsIgnoreCase(wanted))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "'" + key + "' is not an acquisition strategy; use skip-locked or optimistic"));
  }

  @Override
  public String toString() {
    return key;
  }
}
