package io.sluice.config.spi;

/** The common definition {@code threads}: {@code auto} or a whole number of threads. */
public final class Threads {

  /** The rule a {@code threads} value breaks, in words. */
  public static final String RULE = "must be auto or a whole number of threads, from 1 to 1000";

  private Threads() {}
}
