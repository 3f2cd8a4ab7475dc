package io.sluice.core.file;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link FileSource} does with a file its flow finished: delete it or move it to {@code
 * moveTo}.
 */
final class FileRemoval {

  private static final Logger LOG = LoggerFactory.getLogger(FileSource.class);

  private final FileSourceConfig config;
  private final Path directory;
  private final Path moveTo;
  private boolean atomicMove;

  FileRemoval(FileSourceConfig config, Path directory) {
    this.config = config;
    this.directory = directory;
    this.moveTo = config.moveTo() == null ? null : config.moveTo().toAbsolutePath().normalize();
  }

  /** Creates {@code moveTo} and finds whether a move into it can be an atomic rename. */
  void prepare() throws IOException {
    Files.createDirectories(moveTo);
    atomicMove = Files.getFileStore(directory).equals(Files.getFileStore(moveTo));
  }

  Path moveTo() {
    return moveTo;
  }

  /** Deletes or moves {@code path}, as {@code afterRead} says. */
  void apply(Path path) throws IOException {
    if (config.afterRead() == AfterRead.DELETE) {
      Files.delete(path);
    } else {
      move(path);
    }
  }

  /** What is done with a finished file, for the start-up log. */
  String describe() {
    if (config.afterRead() == AfterRead.DELETE) {
      return "delete";
    }
    return "move to '"
        + moveTo
        + "' ("
        + (atomicMove ? "atomic" : "copy and delete: moveTo is on another file system")
        + ")";
  }

  /**
   * What changed of the file at the candidate's path since it was listed (another file there, a new
   * size or modification time), or null when nothing did.
   *
   * @throws NoSuchFileException when no file is there any more
   */
  static String changedSinceListed(FileSource.Candidate candidate) throws IOException {
    BasicFileAttributes listed = candidate.attributes();
    BasicFileAttributes now =
        Files.readAttributes(
            candidate.path(), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    Object key = listed.fileKey();
    if (key != null && !key.equals(now.fileKey())) {
      return "was replaced by another file";
    }
    if (now.size() != listed.size()) {
      return "changed size (" + listed.size() + " bytes when listed, " + now.size() + " now)";
    }
    if (!now.lastModifiedTime().equals(listed.lastModifiedTime())) {
      return "was modified (at " + now.lastModifiedTime() + ")";
    }
    return null;
  }

  private void move(Path path) throws IOException {
    Path target = moveTo.resolve(path.getFileName());
    if (atomicMove) {
      try {
        Files.move(
            path, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return;
      } catch (AtomicMoveNotSupportedException e) {
        // Same file store yet no atomic rename (some network file systems): copy and delete.
        LOG.debug("Atomic move of '{}' is not supported: {}", path, e.toString());
      }
    }
    Files.move(path, target, StandardCopyOption.REPLACE_EXISTING);
  }
}
