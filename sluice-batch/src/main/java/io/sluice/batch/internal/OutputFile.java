package io.sluice.batch.internal;

import io.sluice.batch.BatchOutput;
import io.sluice.batch.BatchOutputException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A batch instance's output file as its commits left it, open for appending by one writer: a new
 * output is replaced by a file holding the header (forced, then recorded); a begun one is cut back
 * to the bytes the instance's commits count. The writer holds the file's lock (an OS lock, which a
 * process killed or ended lets go of, and a paused one keeps) and one run of this process at most
 * writes it: so a node that took the writing over from a node paused past its lease, on the same
 * machine or a shared file system, cannot write beside it, and the paused one cuts back only its
 * own uncommitted bytes before it lets go. Appends are forced before their commit; {@link
 * #committed} moves the end only after it.
 */
final class OutputFile implements AutoCloseable {

  /** Files written by a run of this process now: two runs appending to one file would mix it. */
  private static final Set<Path> OPEN = ConcurrentHashMap.newKeySet();

  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;
  private final BlockStore store;
  private final long instance;
  private long committed;
  private boolean keepUncut;

  private OutputFile(
      Path file,
      FileChannel channel,
      FileLock lock,
      BlockStore store,
      long instance,
      long committed) {
    this.file = file;
    this.channel = channel;
    this.lock = lock;
    this.store = store;
    this.instance = instance;
    this.committed = committed;
  }

  /**
   * Opens the output of {@code instance}; null when another run of this process writes the file, or
   * another process holds its lock (the node that wrote it before, alive or paused). A {@link
   * BatchOutputException} when it cannot be opened or is shorter than its commits count.
   */
  static OutputFile open(BatchOutput output, BlockStore store, long instance) {
    Path file = output.file().toAbsolutePath().normalize();
    if (!OPEN.add(file)) {
      return null; // another run of this process writes it
    }
    FileChannel channel = null;
    try {
      Path parent = file.getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock = channel.tryLock();
      if (lock == null) {
        close(channel);
        OPEN.remove(file);
        return null;
      }
      // Read after the lock: a writer that let go of it committed its last bytes before.
      long bytes = store.outputBytes(instance);
      if (bytes < 0) {
        channel.truncate(0);
        byte[] header = output.header().getBytes(StandardCharsets.UTF_8);
        writeFully(channel, ByteBuffer.wrap(header), 0);
        channel.force(false);
        store.outputBegun(instance, header.length);
        return new OutputFile(file, channel, lock, store, instance, header.length);
      }
      long size = channel.size();
      if (size < bytes) {
        throw new BatchOutputException(
            "The batch output "
                + file
                + " has "
                + size
                + " bytes, but instance "
                + instance
                + " wrote and committed "
                + bytes
                + ": it was cut or replaced since (or, across nodes, this node does not see the"
                + " file the node before it wrote: give the output a path on a file system they"
                + " share). Put the file back as it was to resume, or start a new instance",
            null);
      }
      // Lines written after the last commit, by a run that crashed before committing them: their
      // blocks are still in the store and write them again.
      channel.truncate(bytes);
      return new OutputFile(file, channel, lock, store, instance, bytes);
    } catch (IOException e) {
      close(channel);
      OPEN.remove(file);
      throw new BatchOutputException(
          "Could not open the batch output " + file + ": " + BatchRun.describe(e), e);
    } catch (RuntimeException e) {
      close(channel);
      OPEN.remove(file);
      throw e;
    }
  }

  /** The file, as opened. */
  Path file() {
    return file;
  }

  /** The bytes the commits count. */
  long committed() {
    return committed;
  }

  /**
   * Writes {@code lines} after the committed bytes and forces them; returns the end to commit. They
   * count only once {@link #committed(long)} says their commit succeeded.
   */
  long append(List<byte[]> lines) throws IOException {
    int size = 0;
    for (byte[] block : lines) {
      size += block.length;
    }
    ByteBuffer buffer = ByteBuffer.allocate(size);
    lines.forEach(buffer::put);
    buffer.flip();
    writeFully(channel, buffer, committed);
    channel.force(false);
    return committed + size;
  }

  /** The commit of the bytes up to {@code end} succeeded. */
  void committed(long end) {
    committed = end;
  }

  /** Cuts off what was written after the committed bytes (a commit that failed). */
  void cutBack() throws IOException {
    channel.truncate(committed);
  }

  /**
   * After a commit of the bytes up to {@code end} whose outcome is unknown (the store broke off):
   * reads the end the store holds, and counts those bytes when it is theirs (true: the commit went
   * through), else cuts them off (false).
   */
  boolean settle(long end) throws IOException {
    if (store.outputBytes(instance) == end) {
      committed = end;
      return true;
    }
    cutBack();
    return false;
  }

  /**
   * Leaves what was written after the committed bytes when the file is closed: whether they count
   * is not known (the store did not answer), and the next writer cuts the file to what it says.
   */
  void keepUncut() {
    keepUncut = true;
  }

  private static void writeFully(FileChannel channel, ByteBuffer buffer, long position)
      throws IOException {
    long at = position;
    while (buffer.hasRemaining()) {
      at += channel.write(buffer, at);
    }
  }

  /** Cuts the file back to the bytes the commits count, forces it and lets go of it. */
  @Override
  public void close() {
    try {
      if (!keepUncut) {
        channel.truncate(committed);
      }
      channel.force(false);
    } catch (IOException e) {
      // Whatever is past the committed bytes is cut when the instance is resumed.
    } finally {
      try {
        lock.release();
      } catch (IOException e) {
        // closing the channel lets go of the lock too
      }
      close(channel);
      OPEN.remove(file);
    }
  }

  private static void close(FileChannel channel) {
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } catch (IOException e) {
      // every byte that counts was forced before its commit
    }
  }
}
