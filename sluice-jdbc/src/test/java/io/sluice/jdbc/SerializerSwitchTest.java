package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.store.Delivery;
import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** What one default serializer wrote stays readable after the default changes. */
class SerializerSwitchTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  @TempDir Path dir;

  private static Storage open(StorageConfig config, String serializer) {
    var values = TestStorages.values(serializer);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    return config.type().equals(StorageConfig.SQLITE)
        ? new SqliteStorageFactory().open(config, values, registry, Clock.systemUTC())
        : new PostgresStorageFactory().open(config, values, registry, Clock.systemUTC());
  }

  private static void writtenWithJdkIsReadWithFory(StorageConfig config) {
    Map<String, Object> value = Map.of("order", 42L, "lines", List.of("a", "b"));
    try (Storage jdk = open(config, "jdk")) {
      assertThat(jdk.objectStore("s", ObjectStoreOptions.DEFAULTS).keys()).isEmpty();
      jdk.objectStore("s", ObjectStoreOptions.DEFAULTS).put("k", value);
      jdk.queue("q", QueueOptions.DEFAULTS).enqueue(value);
    }

    try (Storage fory = open(config, "fory")) {
      ObjectStore store = fory.objectStore("s", ObjectStoreOptions.DEFAULTS);
      assertThat(store.get("k")).contains(value);
      store.put("k2", "written by fory");
      assertThat(fory.queue("q", QueueOptions.DEFAULTS).take(5))
          .extracting(Delivery::payload)
          .containsExactly(value);
    }
  }

  @Test
  void sqliteDataWrittenWithJdkIsReadAfterReopeningWithForyAsDefault() {
    writtenWithJdkIsReadWithFory(TestStorages.sqliteConfig(dir));
  }

  @Test
  void postgresDataWrittenWithJdkIsReadAfterReopeningWithForyAsDefault() {
    writtenWithJdkIsReadWithFory(DB.config());
  }
}
