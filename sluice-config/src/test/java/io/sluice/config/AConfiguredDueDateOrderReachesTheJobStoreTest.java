package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.app.Application;
import io.sluice.jobs.config.JobsConfig;
import io.sluice.jobs.spi.ClaimedJob;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.NewJob;
import io.sluice.jobs.spi.NodeLease;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code claimOrder: due-date} in the file makes the store it opens claim by due time alone. */
class AConfiguredDueDateOrderReachesTheJobStoreTest {

  @TempDir Path dir;

  @Test
  void theJobDueFirstIsClaimedFirstWhateverItsPriority() {
    Configuration configuration =
        ConfigLoader.read(
            "app.yaml",
            """
            sluice:
              store: { dataDir: data }
              jobs: { claimOrder: due-date }
            flows: [ { name: bare } ]
            """,
            dir,
            getClass().getClassLoader());

    try (Application app = configuration.application().build()) {
      JobStore store =
          configuration.section(JobsConfig.class).store(app.storage(), app.storedValues());
      Instant now = store.clock().instant();
      store.create(NewJob.of("email", "urgent").withPriority(100).withDueAt(now.minusSeconds(1)));
      store.create(NewJob.of("email", "routine").withPriority(0).withDueAt(now.minusSeconds(5)));
      NodeLease lease = store.register("node-a", Duration.ofMinutes(1));

      List<ClaimedJob> first = store.claim(lease, Set.of("email"), 1);

      assertThat(first).extracting(j -> j.payload().read()).containsExactly("routine");
    }
  }
}
