package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.StoreException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A damaged file is refused at open; a full disk fails the write and leaves nothing visible. */
class SqliteFaultsTest {

  @TempDir Path dir;

  @Test
  void aFileOfGarbageIsRefusedNamingIt() throws Exception {
    byte[] garbage = new byte[64 * 1024];
    new Random(7).nextBytes(garbage);
    Files.write(dir.resolve("sluice.db"), garbage);

    assertThatThrownBy(() -> TestStorages.sqlite(dir, Clock.systemUTC()))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining(dir.resolve("sluice.db").toString())
        .hasMessageContaining("is not a SQLite database or is corrupt");
  }

  @Test
  void aTruncatedDatabaseIsRefusedNamingIt() throws Exception {
    try (JdbcStorage storage = TestStorages.sqlite(dir, Clock.systemUTC())) {
      var store = storage.objectStore("s", ObjectStoreOptions.DEFAULTS);
      for (int i = 0; i < 2000; i++) {
        store.put("key " + i, "a value long enough to fill pages ".repeat(4) + i);
      }
    }
    Path file = dir.resolve("sluice.db");
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.setLength(raf.length() / 2);
    }

    assertThatThrownBy(() -> TestStorages.sqlite(dir, Clock.systemUTC()))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("is not a SQLite database or is corrupt");
  }

  @Test
  void aFullDiskFailsTheEnqueueAndLeavesNothingVisible() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (JdbcStorage storage = TestStorages.sqlite(dir, Clock.systemUTC(), registry)) {
      DurableQueue queue = storage.queue("q", QueueOptions.DEFAULTS);
      queue.enqueue("before");
      long pages =
          storage.write(
              "fill the disk",
              tx -> {
                try (var rs = tx.connection().createStatement().executeQuery("PRAGMA page_count")) {
                  rs.next();
                  long count = rs.getLong(1);
                  tx.connection().createStatement().execute("PRAGMA max_page_count = " + count);
                  return count;
                }
              });
      assertThat(pages).isPositive();

      assertThatThrownBy(() -> queue.enqueue(new byte[256 * 1024]))
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("Could not enqueue 1 message(s) into queue 'q' in sqlite")
          .hasMessageContaining("full");
      assertThat(queue.size()).isEqualTo(1);

      storage.write(
          "make room",
          tx -> tx.connection().createStatement().execute("PRAGMA max_page_count = 1000000"));
      queue.enqueue("after");
      assertThat(queue.size()).isEqualTo(2);
    }
  }

  @Test
  void describeNamesTheFileTheModeAndTheSchema() {
    try (JdbcStorage storage = TestStorages.sqlite(dir, Clock.systemUTC())) {
      // v5: sluice-jdbc's own tables' newest version; the jobs' and batch's are not on this path.
      assertThat(storage.describe())
          .isEqualTo(
              "sqlite "
                  + dir.resolve("sluice.db").toAbsolutePath()
                  + " (WAL, synchronous=FULL, schema v5)");
      assertThat(storage.durable()).isTrue();
    }
  }
}
