package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.app.Application;
import io.sluice.core.health.HealthCheck;
import io.sluice.core.health.Readiness;
import io.sluice.core.store.StorageConfig;
import io.sluice.testkit.PostgresTestDatabase;
import io.sluice.testkit.TcpProxy;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readiness of an application's store under a real outage: a full disk under a SQLite file, a
 * PostgreSQL that goes away (its connections cut and refused by a proxy in front of the real
 * server). Down within seconds, up again when the store recovers.
 */
class ReadinessTellsTheTruthAboutTheStoreTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  @TempDir Path dir;

  private static Readiness readiness(Application app) {
    return new Readiness(
        app::healthContributors, Duration.ofSeconds(2), Duration.ZERO, Clock.systemUTC());
  }

  private static String store(List<HealthCheck> checks) {
    return checks.stream()
        .filter(c -> c.component().equals("store"))
        .map(c -> (c.up() ? "UP " : "DOWN ") + c.detail())
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aSqliteStoreWhoseDiskFillsIsDownUntilThereIsRoomAgain() throws Exception {
    Path disk = Files.createDirectories(dir.resolve("disk"));
    boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
    Process mount =
        new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", disk.toString())
            .redirectErrorStream(true)
            .start();
    String said = new String(mount.getInputStream().readAllBytes());
    boolean mounted = mount.waitFor() == 0;
    if (!ci) {
      Assumptions.assumeTrue(
          mounted, "a real full disk needs a 16 MB tmpfs, which this user cannot mount: " + said);
    }
    assertThat(mounted).as("mount a 16 MB tmpfs (CI runs as root): %s", said).isTrue();
    try (JdbcStorage storage = TestStorages.sqlite(disk.resolve("data"), Clock.systemUTC());
        Application app = Application.builder().storage(storage).build()) {
      app.start();
      Readiness readiness = readiness(app);
      app.storage().objectStore("orders", null).put("first", "accepted");
      List<HealthCheck> before = readiness.checks();
      assertThat(Readiness.allUp(before)).as("%s", before).isTrue();
      assertThat(store(before)).startsWith("UP sqlite").contains("a write committed in");

      Path filler = disk.resolve("filler");
      fillTheDisk(filler);
      List<HealthCheck> full = readiness.checks();
      assertThat(Readiness.allUp(full)).as("%s", full).isFalse();
      assertThat(full)
          .anySatisfy(
              c -> {
                assertThat(c.component()).isEqualTo("store disk");
                assertThat(c.up()).isFalse();
                assertThat(c.detail()).contains("KiB free on the disk of").contains("under");
              });

      Files.delete(filler);
      List<HealthCheck> after = readiness.checks();
      assertThat(Readiness.allUp(after)).as("%s", after).isTrue();
      assertThat(app.storage().objectStore("orders", null).get("first")).hasValue("accepted");
    } finally {
      if (mounted) {
        new ProcessBuilder("umount", "-l", disk.toString()).start().waitFor();
      }
    }
  }

  /** Writes {@code filler} until the disk has no room left. */
  private static void fillTheDisk(Path filler) throws IOException {
    byte[] block = new byte[64 * 1024];
    try (OutputStream out = Files.newOutputStream(filler)) {
      while (true) {
        out.write(block);
      }
    } catch (IOException full) {
      if (!String.valueOf(full.getMessage()).contains("No space left")) {
        throw full;
      }
    }
  }

  @Test
  void aPostgresStoreThatGoesAwayIsDownWithinSecondsAndUpWhenItReturns() throws Exception {
    try (TcpProxy proxy = TcpProxy.to(PostgresTestDatabase.HOST, PostgresTestDatabase.PORT)) {
      StorageConfig config = DB.configThrough(proxy);
      try (JdbcStorage storage =
              (JdbcStorage)
                  new PostgresStorageFactory()
                      .open(
                          config,
                          TestStorages.values(),
                          new SimpleMeterRegistry(),
                          Clock.systemUTC());
          Application app = Application.builder().storage(storage).build()) {
        app.start();
        Readiness readiness = readiness(app);
        assertThat(store(readiness.checks())).startsWith("UP postgresql");

        proxy.cut();
        long cut = System.nanoTime();
        await().atMost(Duration.ofSeconds(10)).until(() -> !Readiness.allUp(readiness.checks()));
        assertThat(Duration.ofNanos(System.nanoTime() - cut)).isLessThan(Duration.ofSeconds(5));
        assertThat(store(readiness.checks())).startsWith("DOWN");

        proxy.restore();
        await().atMost(Duration.ofSeconds(30)).until(() -> Readiness.allUp(readiness.checks()));
      }
    }
  }
}
