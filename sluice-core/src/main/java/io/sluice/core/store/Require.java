package io.sluice.core.store;

import java.time.Duration;
import java.util.List;

/**
 * The argument checks every store implementation shares (in memory, SQLite, PostgreSQL), so that
 * the same bad argument gets the same exception and message from each.
 */
public final class Require {

  private Require() {}

  /** {@code value}, failing when it is null (NullPointerException) or blank. */
  public static String nonBlank(String value, String what) {
    if (value == null) {
      throw new NullPointerException(what + " must not be null");
    }
    if (value.isBlank()) {
      throw new IllegalArgumentException(what + " must not be blank, was '" + value + "'");
    }
    return value;
  }

  /** {@code value}, failing with a NullPointerException naming it when it is null. */
  public static <T> T nonNull(T value, String what) {
    if (value == null) {
      throw new NullPointerException(what + " must not be null");
    }
    return value;
  }

  /** {@code value}, failing when it is null or negative. */
  public static Duration notNegative(Duration value, String what) {
    if (nonNull(value, what).isNegative()) {
      throw new IllegalArgumentException(what + " must not be negative, was " + value);
    }
    return value;
  }

  /** {@code max}, failing when it is below 1. */
  public static int atLeastOne(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max must be at least 1, was " + max);
    }
    return max;
  }

  /** {@code value} of the entry under {@code key}, failing when it is null. */
  public static Object value(Object value, String key) {
    if (value == null) {
      throw new IllegalArgumentException(
          "value must not be null; to remove the entry under '" + key + "' use remove(key)");
    }
    return value;
  }

  /** {@code ttl}, failing when it is zero or negative (null: for ever). */
  public static Duration ttl(Duration ttl) {
    if (ttl != null && !ttl.isPositive()) {
      throw new IllegalArgumentException("ttl must be a positive duration or none, was " + ttl);
    }
    return ttl;
  }

  /** {@code payloads}, failing when the list or one of them is null. */
  public static <T> List<T> payloads(List<T> payloads) {
    nonNull(payloads, "payloads");
    for (int i = 0; i < payloads.size(); i++) {
      nonNull(payloads.get(i), "payloads[" + i + "]");
    }
    return payloads;
  }
}
