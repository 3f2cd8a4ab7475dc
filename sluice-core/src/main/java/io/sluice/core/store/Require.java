package io.sluice.core.store;

import java.time.Duration;

/** The argument checks the in-memory stores share, so their messages read the same. */
final class Require {

  private Require() {}

  /** {@code value}, failing when it is null (NullPointerException) or blank. */
  static String nonBlank(String value, String what) {
    if (value == null) {
      throw new NullPointerException(what + " must not be null");
    }
    if (value.isBlank()) {
      throw new IllegalArgumentException(what + " must not be blank, was '" + value + "'");
    }
    return value;
  }

  /** {@code value}, failing with a NullPointerException naming it when it is null. */
  static <T> T nonNull(T value, String what) {
    if (value == null) {
      throw new NullPointerException(what + " must not be null");
    }
    return value;
  }

  /** {@code value}, failing when it is null or negative. */
  static Duration notNegative(Duration value, String what) {
    if (nonNull(value, what).isNegative()) {
      throw new IllegalArgumentException(what + " must not be negative, was " + value);
    }
    return value;
  }

  /** {@code max}, failing when it is below 1. */
  static int atLeastOne(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max must be at least 1, was " + max);
    }
    return max;
  }
}
