package io.sluice.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the SQLite driver's native library in a directory between runs, when the launcher names one
 * ({@value #CACHE_PROPERTY}): the driver otherwise asks the system which platform it runs on and
 * extracts its library afresh at every start, about 70 ms of a short command such as {@code sluice
 * jobs create}. The first run copies the library the driver chose; later runs point the driver at
 * the copy ({@code org.sqlite.lib.path}). Best effort: a directory that cannot be written leaves
 * the driver to do as it does without. A copy the driver cannot load (damaged from outside: it is
 * written aside and moved into place) fails that one run and is removed.
 */
final class SqliteNativeLibrary {
  /** The system property naming the directory, set by the {@code sluice} launcher. */
  static final String CACHE_PROPERTY = "sluice.sqlite.nativeCache";

  private static final Logger LOG = LoggerFactory.getLogger(SqliteNativeLibrary.class);
  private static boolean pointed;
  private static boolean kept;

  private SqliteNativeLibrary() {}

  /** Before the driver first loads: points it at the kept copy, if there is one. */
  static synchronized void beforeFirstUse() {
    Path copy = copy();
    if (pointed || copy == null || System.getProperty("org.sqlite.lib.path") != null) {
      return;
    }
    pointed = true;
    if (Files.isRegularFile(copy)) {
      System.setProperty("org.sqlite.lib.path", copy.getParent().toString());
      System.setProperty("org.sqlite.lib.name", copy.getFileName().toString());
      kept = true;
    }
  }

  /**
   * After the driver could not load the kept copy: deletes it, so that the next run extracts the
   * driver's own; false when no copy was used.
   */
  static synchronized boolean forgetKeptCopy() {
    Path copy = copy();
    if (copy == null || !copy.toString().equals(pointedAt())) {
      return false;
    }
    System.clearProperty("org.sqlite.lib.path");
    System.clearProperty("org.sqlite.lib.name");
    LOG.warn(
        "The SQLite native library kept in {} could not be loaded and is removed",
        copy.getParent());
    try {
      Files.deleteIfExists(copy);
    } catch (IOException e) {
      LOG.debug("Could not delete {}: {}", copy, e.toString());
    }
    kept = false;
    return true;
  }

  private static String pointedAt() {
    String path = System.getProperty("org.sqlite.lib.path");
    String name = System.getProperty("org.sqlite.lib.name");
    return path == null || name == null ? null : Path.of(path).resolve(name).toString();
  }

  /** After the driver loaded its library: keeps a copy of it for the next run, if none is kept. */
  static synchronized void afterFirstUse() {
    Path copy = copy();
    if (kept || copy == null) {
      return;
    }
    kept = true;
    String resource =
        org.sqlite.util.LibraryLoaderUtil.getNativeLibResourcePath()
            + "/"
            + org.sqlite.util.LibraryLoaderUtil.getNativeLibName();
    try (InputStream in = org.sqlite.JDBC.class.getResourceAsStream(resource)) {
      if (in == null) {
        return;
      }
      Files.createDirectories(copy.getParent());
      Path partial = Files.createTempFile(copy.getParent(), "sqlite", ".partial");
      try {
        Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
        Files.move(partial, copy, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(partial);
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("The SQLite native library was not kept in {}: {}", copy.getParent(), e.toString());
    }
  }

  /**
   * The copy for this platform: its name says the system and the architecture (a directory shared
   * by two machines keeps one for each).
   */
  private static Path copy() {
    String directory = System.getProperty(CACHE_PROPERTY);
    if (directory == null || directory.isBlank()) {
      return null;
    }
    String platform =
        (System.getProperty("os.name", "") + "-" + System.getProperty("os.arch", ""))
            .replaceAll("[^A-Za-z0-9_.-]", "_");
    return Path.of(directory).resolve("libsqlitejdbc-" + platform);
  }
}
