package io.sluice.formats;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * A document made while it is read, never held: a head, {@code rows} rows (endless when negative)
 * and a tail. It counts the bytes handed out and whether it was closed.
 */
final class GeneratedDocument extends InputStream {

  /** One row's text, from its number. */
  @FunctionalInterface
  interface Row {
    String text(long number);
  }

  private final byte[] tail;
  private final Row row;
  private final long rows;
  private byte[] chunk;
  private int at;
  private long made;
  private boolean tailGiven;
  private long read;
  private volatile boolean closed;

  GeneratedDocument(String head, Row row, long rows, String tail) {
    this.chunk = head.getBytes(StandardCharsets.UTF_8);
    this.row = row;
    this.rows = rows;
    this.tail = tail.getBytes(StandardCharsets.UTF_8);
  }

  /** A JSON array of {@code rows} small orders. */
  static GeneratedDocument jsonArray(long rows) {
    return new GeneratedDocument(
        "[",
        n -> (n == 0 ? "" : ",") + "{\"id\":" + n + ",\"sku\":\"S-" + n + "\",\"quantity\":3}\n",
        rows,
        "]");
  }

  /** A CSV document with a header and {@code rows} rows. */
  static GeneratedDocument csv(long rows) {
    return new GeneratedDocument("id,sku,quantity\n", n -> n + ",S-" + n + ",3\n", rows, "");
  }

  @Override
  public int read() {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) {
    if (length == 0) {
      return 0;
    }
    while (at == chunk.length) {
      if (rows < 0 || made < rows) {
        chunk = row.text(made++).getBytes(StandardCharsets.UTF_8);
      } else if (!tailGiven) {
        tailGiven = true;
        chunk = tail;
      } else {
        return -1;
      }
      at = 0;
    }
    int n = Math.min(length, chunk.length - at);
    System.arraycopy(chunk, at, buffer, offset, n);
    at += n;
    read += n;
    return n;
  }

  /** The bytes handed out so far. */
  long bytesRead() {
    return read;
  }

  boolean closed() {
    return closed;
  }

  @Override
  public void close() {
    closed = true;
  }
}
