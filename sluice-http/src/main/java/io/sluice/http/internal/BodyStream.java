package io.sluice.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A request body a flow reads while it still arrives: the payload of a streaming listener's
 * message. The connection's event loop appends what the codec decodes; the flow's thread reads. At
 * most about {@link #HIGH_WATER} bytes wait in memory: past that the connection stops reading the
 * socket, so TCP makes the client wait, and it reads again once the flow caught up.
 *
 * <p>A read on the event loop itself, with nothing buffered, would wait for bytes only that same
 * event loop could deliver: it fails at once, naming the fix, instead of hanging the connection.
 */
final class BodyStream extends InputStream {

  /** Buffered bytes past which the socket is no longer read. */
  static final int HIGH_WATER = 256 * 1024;

  /** Buffered bytes under which a paused socket is read again. */
  static final int LOW_WATER = 64 * 1024;

  private final Channel channel;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition arrived = lock.newCondition();
  private final ArrayDeque<byte[]> chunks = new ArrayDeque<>();
  private int offset;
  private long buffered;
  private long received;
  private boolean ended;
  private boolean abandoned;
  private boolean paused;
  private String failure;

  BodyStream(Channel channel) {
    this.channel = channel;
  }

  /** Bytes of the body arrived (event loop). */
  void append(ByteBuf content) {
    if (!content.isReadable()) {
      return;
    }
    byte[] bytes = ByteBufUtil.getBytes(content);
    boolean pause;
    lock.lock();
    try {
      received += bytes.length;
      if (abandoned) {
        return;
      }
      chunks.add(bytes);
      buffered += bytes.length;
      arrived.signalAll();
      pause = buffered >= HIGH_WATER;
      paused |= pause;
    } finally {
      lock.unlock();
    }
    if (pause) {
      // Also when already paused: something else on the connection may have turned reading on.
      channel.config().setAutoRead(false);
    }
  }

  /** The whole body arrived (event loop). */
  void end() {
    lock.lock();
    try {
      ended = true;
      arrived.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The body will never end: a reader waiting or coming later fails with {@code why}. */
  void fail(String why) {
    lock.lock();
    try {
      if (!ended && failure == null) {
        failure = why;
        arrived.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Whether the last byte of the body arrived. */
  boolean ended() {
    lock.lock();
    try {
      return ended;
    } finally {
      lock.unlock();
    }
  }

  /** Bytes of the body received so far, read or not. */
  long received() {
    lock.lock();
    try {
      return received;
    } finally {
      lock.unlock();
    }
  }

  /** Nobody will read on: what is buffered is dropped and whatever else arrives too. */
  void abandon() {
    lock.lock();
    try {
      abandoned = true;
      chunks.clear();
      buffered = 0;
      fail("the exchange is over");
    } finally {
      lock.unlock();
    }
    resumeReading();
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] target, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, target.length);
    if (len == 0) {
      return 0;
    }
    boolean resume;
    int copied = 0;
    lock.lock();
    try {
      while (chunks.isEmpty()) {
        if (ended) {
          return -1;
        }
        if (failure != null) {
          throw new IOException("the request body cannot be read to its end: " + failure);
        }
        if (channel.eventLoop().inEventLoop()) {
          throw new IOException(
              "a streamed request body cannot be read on the event loop that receives it; mark"
                  + " the processor that reads it BLOCKING_IO");
        }
        try {
          arrived.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while waiting for the request body");
        }
      }
      while (copied < len && !chunks.isEmpty()) {
        byte[] head = chunks.peek();
        int n = Math.min(len - copied, head.length - offset);
        System.arraycopy(head, offset, target, off + copied, n);
        copied += n;
        offset += n;
        if (offset == head.length) {
          chunks.poll();
          offset = 0;
        }
      }
      buffered -= copied;
      resume = paused && buffered <= LOW_WATER;
      if (resume) {
        paused = false;
      }
    } finally {
      lock.unlock();
    }
    if (resume) {
      resumeReading();
    }
    return copied;
  }

  @Override
  public int available() {
    lock.lock();
    try {
      return (int) Math.min(Integer.MAX_VALUE, buffered);
    } finally {
      lock.unlock();
    }
  }

  /** The reader is done: the rest of the body is read from the socket and dropped. */
  @Override
  public void close() {
    abandon();
  }

  private void resumeReading() {
    channel
        .eventLoop()
        .execute(
            () -> {
              channel.config().setAutoRead(true);
              channel.read();
            });
  }

  @Override
  public String toString() {
    return "streamed request body (" + received() + " bytes received so far)";
  }
}
