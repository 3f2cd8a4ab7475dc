package io.sluice.cli;

import io.sluice.config.Secrets;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;

/**
 * A writer that masks secret values ({@link Secrets}) in what the command prints: the {@code
 * sluice} command's standard output and error go through one, so a secret a command would print (a
 * flow name {@code validate} lists, a store's user {@code batch list} names) shows as {@code
 * ******}. Text is held until the writer is flushed (a println does), so that a secret written in
 * two pieces is still found whole; while no secret is registered it passes text straight through.
 */
final class MaskingWriter extends Writer {

  private final Writer delegate;
  private final StringBuilder pending = new StringBuilder();

  private MaskingWriter(Writer delegate) {
    this.delegate = delegate;
  }

  /** A print writer, flushing at each line, that masks what it writes to {@code delegate}. */
  static PrintWriter printWriter(Writer delegate) {
    return new PrintWriter(new MaskingWriter(delegate), true);
  }

  @Override
  public void write(char[] text, int offset, int length) throws IOException {
    synchronized (lock) {
      if (pending.isEmpty() && !Secrets.any()) {
        delegate.write(text, offset, length);
        return;
      }
      // Held to the next flush (a println's), then masked whole: cut at a line end, a secret
      // holding one (a PEM key) would go out in two halves, neither of which is the secret.
      pending.append(text, offset, length);
    }
  }

  @Override
  public void flush() throws IOException {
    synchronized (lock) {
      if (!pending.isEmpty()) {
        delegate.write(Secrets.mask(pending.toString()));
        pending.setLength(0);
      }
      delegate.flush();
    }
  }

  @Override
  public void close() throws IOException {
    flush();
    delegate.close();
  }
}
