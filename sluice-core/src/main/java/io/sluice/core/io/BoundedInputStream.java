package io.sluice.core.io;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.LongFunction;

/**
 * A stream that refuses to be read past a number of bytes, as it is read (whatever a length field
 * or a header claimed): the stored values' JDK serializer and the formats' readers bound what they
 * read with it. Past the limit every read fails with the exception {@code refusal} makes of the
 * limit.
 */
public final class BoundedInputStream extends FilterInputStream {

  private final long limit;
  private final LongFunction<? extends Exception> refusal;
  private long read;

  /**
   * A stream reading {@code in} up to {@code limit} bytes.
   *
   * @param in what is read
   * @param limit the most bytes that may be read
   * @param refusal the error past the limit, given the limit: an {@link IOException} or an
   *     unchecked exception (another is wrapped in an {@code IOException})
   */
  public BoundedInputStream(InputStream in, long limit, LongFunction<? extends Exception> refusal) {
    super(in);
    this.limit = limit;
    this.refusal = refusal;
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

  private void count(long n) throws IOException {
    read += n;
    if (read > limit) {
      Exception refused = refusal.apply(limit);
      if (refused instanceof IOException io) {
        throw io;
      }
      if (refused instanceof RuntimeException unchecked) {
        throw unchecked;
      }
      throw new IOException(refused);
    }
  }
}
