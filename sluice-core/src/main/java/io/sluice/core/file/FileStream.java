package io.sluice.core.file;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * A streamed file source's payload: the file's bytes, read from disk as the flow consumes them, in
 * whatever memory the reader's buffer takes. At the end of the file it checks that the file is as
 * long as when it was opened, so a file truncated or still being written while it was read fails
 * its flow (the file stays and is read again) instead of going through cut short.
 */
final class FileStream extends InputStream {

  private final FileChannel channel;
  private final Path path;
  private final String flow;
  private final long sizeAtOpen;
  private final byte[] one = new byte[1];
  private boolean checked;

  private FileStream(FileChannel channel, Path path, String flow, long sizeAtOpen) {
    this.channel = channel;
    this.path = path;
    this.flow = flow;
    this.sizeAtOpen = sizeAtOpen;
  }

  /** Opens {@code path} for flow {@code flow}; its size now is what the end is checked against. */
  static FileStream open(Path path, String flow) throws IOException {
    FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
    try {
      return new FileStream(channel, path, flow, channel.size());
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** The file's length when it was opened. */
  long sizeAtOpen() {
    return sizeAtOpen;
  }

  @Override
  public int read() throws IOException {
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    Objects.checkFromIndexSize(offset, length, buffer.length);
    if (length == 0) {
      return 0;
    }
    int n = channel.read(ByteBuffer.wrap(buffer, offset, length));
    if (n < 0) {
      checkWhole();
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    if (n <= 0) {
      return 0;
    }
    long position = channel.position();
    long skipped = Math.max(0, Math.min(n, channel.size() - position));
    channel.position(position + skipped);
    return skipped;
  }

  @Override
  public int available() throws IOException {
    return (int) Math.clamp(channel.size() - channel.position(), 0, Integer.MAX_VALUE);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }

  /**
   * At the end: the bytes read must be the file's length when it was opened and now. A file cut
   * short, or one still growing, fails its flow here, once; the file stays for a later poll.
   */
  private void checkWhole() throws IOException {
    if (checked) {
      return;
    }
    checked = true;
    long now = channel.size();
    long read = channel.position();
    if (read != sizeAtOpen || now != sizeAtOpen) {
      throw new IOException(
          "'"
              + path
              + "' changed while flow '"
              + flow
              + "' read it (file source, streaming: true): "
              + sizeAtOpen
              + " bytes when it was opened, "
              + now
              + " now, "
              + read
              + " read; it stays and is read again at a later poll (raise minAge if files are"
              + " still being written when they are read)");
    }
  }
}
