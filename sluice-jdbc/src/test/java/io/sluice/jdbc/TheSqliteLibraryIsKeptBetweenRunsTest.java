package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testkit.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With the launcher's directory named, the first process keeps the SQLite driver's native library
 * there and later ones load that copy instead of extracting one at every start; a copy damaged from
 * outside fails one run, naming why, and the run after it extracts the driver's own again.
 */
@Tag("crash") // starts Sluice processes and stops them: not in the fast suite
class TheSqliteLibraryIsKeptBetweenRunsTest {

  @TempDir Path dir;

  /** Opens a SQLite store in {@code args[0]} and prints where the driver loaded its library. */
  public static final class OpenOnce {
    public static void main(String[] args) {
      try (JdbcStorage storage = TestStorages.sqlite(Path.of(args[0]), Clock.systemUTC())) {
        System.out.println("opened, library path " + System.getProperty("org.sqlite.lib.path"));
      } catch (RuntimeException e) {
        System.out.println("failed: " + e.getMessage());
      }
    }
  }

  @Test
  void theFirstRunKeepsTheLibraryTheNextLoadsItAndADamagedCopyIsReplaced() throws Exception {
    Path kept = dir.resolve("native");

    assertThat(run(kept)).contains("opened, library path null");
    List<Path> copies = copies(kept);
    assertThat(copies).hasSize(1);
    assertThat(copies.getFirst().getFileName().toString()).startsWith("libsqlitejdbc-");
    assertThat(Files.size(copies.getFirst())).isGreaterThan(100_000);

    assertThat(run(kept)).contains("opened, library path " + kept);

    Files.writeString(copies.getFirst(), "not a library");
    assertThat(run(kept))
        .contains("failed: ")
        .contains("could not be loaded and was removed: the next run extracts the driver's own");
    assertThat(copies(kept)).isEmpty();

    assertThat(run(kept)).contains("opened, library path null");
    assertThat(copies(kept)).hasSize(1);
    assertThat(run(kept)).contains("opened, library path " + kept);
  }

  private String run(Path kept) throws Exception {
    List<String> command = new ArrayList<>(ChildJvm.command(OpenOnce.class, dir.toString()));
    command.add(1, "-D" + SqliteNativeLibrary.CACHE_PROPERTY + "=" + kept);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return out;
  }

  private static List<Path> copies(Path kept) throws Exception {
    if (!Files.isDirectory(kept)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(kept)) {
      return files.toList();
    }
  }
}
