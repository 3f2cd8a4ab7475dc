package io.sluice.core.file;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;

/**
 * Writes a message's payload to a file channel: a {@code byte[]} as is, a {@code String} as UTF-8,
 * an {@link InputStream} read to its end a buffer at a time (a streamed file of any size in
 * constant memory), anything else as its {@link String#valueOf} text, and null as nothing.
 */
final class PayloadWriter {

  private static final int STREAM_BUFFER = 64 * 1024;

  private PayloadWriter() {}

  /** Writes all of {@code payload} at the channel's position. */
  static void write(FileChannel channel, Object payload) throws IOException {
    if (payload instanceof InputStream stream) {
      byte[] buffer = new byte[STREAM_BUFFER];
      for (int n = stream.read(buffer); n >= 0; n = stream.read(buffer)) {
        writeFully(channel, ByteBuffer.wrap(buffer, 0, n));
      }
      return;
    }
    writeFully(channel, ByteBuffer.wrap(bytes(payload)));
  }

  private static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
  }

  private static byte[] bytes(Object payload) {
    return switch (payload) {
      case null -> new byte[0];
      case byte[] raw -> raw;
      case String text -> text.getBytes(StandardCharsets.UTF_8);
      default -> String.valueOf(payload).getBytes(StandardCharsets.UTF_8);
    };
  }
}
