package io.sluice.core.file;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Appends each message to its file whole, however many threads, flows and processes append to the
 * same file at once. {@code O_APPEND} alone is not enough: the JDK writes a large array in several
 * system calls (8 KB each through {@code Files.write}), and another writer's bytes land between
 * them.
 *
 * <p>Within the process, appends to one path take turns on a lock (one of a fixed set, chosen by
 * the path, so nothing grows with the number of files); across processes, on an exclusive {@link
 * FileLock} on the whole file, held while the bytes are written. Other processes see whole messages
 * only if they lock too (Sluice does; {@code echo >>} does not).
 */
final class WholeAppends {

  private static final ReentrantLock[] STRIPES = new ReentrantLock[64];

  static {
    for (int i = 0; i < STRIPES.length; i++) {
      STRIPES[i] = new ReentrantLock();
    }
  }

  private WholeAppends() {}

  /**
   * Appends {@code payload} to {@code target} (created if missing) in one piece; a stream that
   * fails half-way is cut off again, so the file ends where it did before.
   */
  static void append(Path target, Object payload) throws IOException {
    ReentrantLock turn = STRIPES[Math.floorMod(target.hashCode(), STRIPES.length)];
    turn.lock();
    try (FileChannel channel =
            FileChannel.open(
                target,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND,
                StandardOpenOption.WRITE);
        FileLock ignored = lock(channel)) {
      long before = channel.size();
      try {
        PayloadWriter.write(channel, payload);
      } catch (IOException | RuntimeException e) {
        channel.truncate(before);
        throw e;
      }
    } finally {
      turn.unlock();
    }
  }

  /**
   * Locks the whole file. The same file under another name (a link) can be locked by another thread
   * of this process, which the JDK reports instead of waiting: wait for it briefly then.
   */
  private static FileLock lock(FileChannel channel) throws IOException {
    while (true) {
      try {
        return channel.lock();
      } catch (OverlappingFileLockException heldHereUnderAnotherName) {
        LockSupport.parkNanos(1_000_000);
        if (Thread.currentThread().isInterrupted()) {
          throw new InterruptedIOException(
              "interrupted waiting for the lock of a file to append to");
        }
      }
    }
  }
}
