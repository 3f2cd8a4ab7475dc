package io.sluice.formats.internal;

import java.io.IOException;

/** A document that passed {@code maxSize} while it was read. */
final class TooLarge extends IOException {
  TooLarge(long limit) {
    super("it is larger than maxSize (" + limit + " bytes)");
  }
}
