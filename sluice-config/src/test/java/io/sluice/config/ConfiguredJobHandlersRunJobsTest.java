package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.app.Application;
import io.sluice.jobs.JobExecutor;
import io.sluice.jobs.config.JobsConfig;
import io.sluice.jobs.spi.JobQuery;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.NewJob;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfiguredJobHandlersRunJobsTest {

  @TempDir Path dir;

  @Test
  void jobsRunThroughTheirFlowOrClassOnTheConfiguredStoreWithMetersInTheApplications()
      throws Exception {
    Configuration configuration =
        ConfigLoader.read(
            "app.yaml",
            """
            sluice:
              store: { dataDir: data }
              jobs:
                nodeId: node-under-test
                handlers:
                  greet: { flow: greet }
                  record: { class: io.sluice.config.RecordingJobHandler }
            flows:
              - name: greet
                processors:
                  - set-payload: { value: "#[payload.toUpperCase()]" }
                sinks:
                  - file-write: { directory: out, fileName: greeting.txt }
            """,
            dir,
            getClass().getClassLoader());
    RecordingJobHandler.RAN.clear();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();

    try (Application app = configuration.application().meterRegistry(registry).build()) {
      app.start();
      try (JobExecutor executor = configuration.section(JobsConfig.class).newExecutor(app)) {
        executor.start();
        JobStore store =
            configuration.section(JobsConfig.class).store(app.storage(), app.storedValues());
        store.create(NewJob.of("greet", "hello"));
        store.create(NewJob.of("record", "kept"));

        assertThat(RecordingJobHandler.RAN.poll(30, TimeUnit.SECONDS)).isEqualTo("kept");
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> store.list(JobQuery.first(10)).isEmpty());
        // A flow's job completes once the flow did, sinks included.
        assertThat(dir.resolve("out/greeting.txt")).hasContent("HELLO");
        assertThat(
                registry
                    .get("sluice.jobs.executed")
                    .tag("node", "node-under-test")
                    .counter()
                    .count())
            .isEqualTo(2);
      }
    }
    assertThat(dir.resolve("data/sluice.db")).exists();
  }
}
