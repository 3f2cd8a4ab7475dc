package io.sluice.jobs;

import java.util.Arrays;
import java.util.Locale;

/**
 * The order in which the nodes of one database claim the jobs that are due. It is written into each
 * job's sort key when the job is created, retried or fails, so every node and command on one store
 * must use the same; one index serves the claim in either order.
 */
public enum ClaimOrder {
  /**
   * By priority, aged: a job of priority {@code p} is claimed as if it were due {@code p ×
   * priorityAging} earlier, so a high priority goes first and a low one waits a bounded time. The
   * default (Camunda 7's {@code jobExecutorAcquireByPriority}, without its starvation).
   */
  PRIORITY("priority"),

  /**
   * By due time alone, the priority ignored: the job due first is claimed first (Camunda 7's {@code
   * jobExecutorAcquireByDueDate}).
   */
  DUE_DATE("due-date");

  private final String key;

  ClaimOrder(String key) {
    this.key = key;
  }

  /** The name used in configuration files: {@code priority} or {@code due-date}. */
  public String key() {
    return key;
  }

  /** The order named {@code key} ({@code priority} or {@code due-date}), any case. */
  public static ClaimOrder of(String key) {
    String wanted = key == null ? "" : key.trim().toLowerCase(Locale.ROOT);
    return Arrays.stream(values())
        .filter(o -> o.key.equals(wanted) || o.name().equalsIgnoreCase(wanted))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "'" + key + "' is not a claim order; use priority or due-date"));
  }

  @Override
  public String toString() {
    return key;
  }
}
