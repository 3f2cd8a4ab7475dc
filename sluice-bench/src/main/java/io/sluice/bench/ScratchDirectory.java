package io.sluice.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/**
 * A temporary directory for one run's embedded store, deleted with everything in it when closed, so
 * every run starts on an empty database and runs leave nothing behind.
 *
 * @param path where it is
 */
public record ScratchDirectory(Path path) implements AutoCloseable {

  /**
   * A new empty directory under the system's temporary directory, its name starting {@code prefix}.
   */
  public static ScratchDirectory create(String prefix) throws IOException {
    return new ScratchDirectory(Files.createTempDirectory(prefix));
  }

  /** Deletes {@code dir} and everything in it. */
  public static void deleteTree(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  @Override
  public void close() throws IOException {
    deleteTree(path);
  }
}
