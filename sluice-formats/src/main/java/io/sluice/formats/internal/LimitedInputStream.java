package io.sluice.formats.internal;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** A stream that fails once more than {@code limit} bytes were read from it. */
final class LimitedInputStream extends FilterInputStream {

  private final long limit;
  private long read;

  LimitedInputStream(InputStream in, long limit) {
    super(in);
    this.limit = limit;
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b >= 0) {
      count(1);
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = super.read(b, off, len);
    if (n > 0) {
      count(n);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    long skipped = super.skip(n);
    count(skipped);
    return skipped;
  }

  private void count(long n) throws TooLarge {
    read += n;
    if (read > limit) {
      throw new TooLarge(limit);
    }
  }

  /** The document passed the limit. */
  static final class TooLarge extends IOException {
    TooLarge(long limit) {
      super("it is larger than maxSize (" + limit + " bytes)");
    }
  }
}
