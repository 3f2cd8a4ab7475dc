package io.sluice.jobs.spi;

import io.sluice.core.store.Require;

/**
 * Which entries {@link JobStore#history} returns: those of one type (or any) that ended in one
 * state (or either), whose payload text or error holds {@code text} (or any), written before entry
 * {@code beforeId}: newest first, at most {@code max}. To page back through them, pass the last id
 * a page returned as the next page's {@code beforeId}.
 *
 * @param type the job type asked for; null for any
 * @param state the end asked for; null for either
 * @param text a text the payload or the error holds, case ignored (on SQLite for ASCII letters
 *     only); null or empty for any
 * @param beforeId only entries with a smaller id (0: from the newest)
 * @param max the most entries returned, 1 to {@link #MAX}
 */
public record HistoryQuery(
    String type, FinishedJob.State state, String text, long beforeId, int max) {

  /** The most entries one query returns. */
  public static final int MAX = 1000;

  /** Checks every component; the message names the one that is wrong and its value. */
  public HistoryQuery {
    if (type != null) {
      NewJob.type(type);
    }
    if (text != null && text.isEmpty()) {
      text = null;
    }
    if (beforeId < 0) {
      throw new IllegalArgumentException("beforeId must not be negative, was " + beforeId);
    }
    Require.atLeastOne(max);
    if (max > MAX) {
      throw new IllegalArgumentException("max must be at most " + MAX + ", was " + max);
    }
  }

  /** The newest {@code max} entries, of any type and state. */
  public static HistoryQuery newest(int max) {
    return new HistoryQuery(null, null, null, 0, max);
  }

  /** This query, for jobs of type {@code value} (null: any). */
  public HistoryQuery withType(String value) {
    return new HistoryQuery(value, state, text, beforeId, max);
  }

  /** This query, for jobs that ended in {@code value} (null: either). */
  public HistoryQuery withState(FinishedJob.State value) {
    return new HistoryQuery(type, value, text, beforeId, max);
  }

  /** This query, for jobs whose payload text or error holds {@code value} (null: any). */
  public HistoryQuery withText(String value) {
    return new HistoryQuery(type, state, value, beforeId, max);
  }

  /** This query, for entries older than entry {@code id}: the page after the one ending there. */
  public HistoryQuery before(long id) {
    return new HistoryQuery(type, state, text, id, max);
  }
}
