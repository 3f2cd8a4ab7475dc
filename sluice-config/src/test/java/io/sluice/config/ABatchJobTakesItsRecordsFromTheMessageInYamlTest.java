package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.batch.BatchEngine;
import io.sluice.batch.BatchInstance;
import io.sluice.batch.BatchStartRefusedException;
import io.sluice.batch.config.BatchConfig;
import io.sluice.core.ConfigurationException;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code batch-execute} hands the job the message (Mule's {@code batch:execute}): a job whose input
 * is {@code message} takes the elements of the payload as its records, and a key makes a second
 * start with the same input a refusal that names it. A real application from YAML, on SQLite.
 */
class ABatchJobTakesItsRecordsFromTheMessageInYamlTest {

  @TempDir Path dir;

  private static final String YAML =
      """
      sluice:
        store: { dataDir: data }
      flows:
        - name: import
          processors:
            - batch-execute: { job: orders, key: "#[vars.file]", target: started, resultFlow: report }
        - name: report
          processors:
            - set-variable: { name: instance, value: "#[payload.instance()]" }
            - set-payload: { value: "#[payload.state() + ' ' + payload.loaded() + ' ' + payload.successful() + ' ' + payload.failed()]" }
          sinks:
            - file-write: { directory: results, fileName: "#['instance-' + vars.instance + '.txt']" }
      batch:
        - name: orders
          input: { message: {} }
          blockSize: 10
          maxFailedRecords: -1
          steps:
            - name: check
              processors:
                - set-payload: { value: "#[payload.id.toUpperCase()]" }
      """;

  private Application start(Configuration configuration) {
    Application app = configuration.application().build();
    configuration.section(BatchConfig.class).launcher().bind(app);
    app.start();
    return app;
  }

  private static Message orders(String file, int count) {
    List<Object> records =
        IntStream.range(0, count).<Object>mapToObj(i -> Map.of("id", "o-" + i)).toList();
    return Message.of(records).withVariable("file", file);
  }

  @Test
  void theElementsOfThePayloadAreTheRecordsAndAreStoredBeforeTheFlowGoesOn() throws Exception {
    Configuration configuration = ConfigLoader.read("app.yaml", YAML, dir, loader());
    Application app = start(configuration);
    try {
      // 25 maps and one text: the text has no id, so it fails at the step, alone.
      List<Object> payload = new java.util.ArrayList<>((List<?>) orders("a.csv", 25).payload());
      payload.add(12, "not an order");
      Message started =
          app.send("import", Message.of(payload).withVariable("file", "a.csv"))
              .get(30, TimeUnit.SECONDS);

      long instance = (Long) started.variable("started");
      BatchInstance stored = BatchEngine.of(app).instance(instance).orElseThrow();
      assertThat(stored.loaded()).as("every record stored when the flow went on").isEqualTo(26);

      Path result = dir.resolve("results/instance-" + instance + ".txt");
      await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(result));
      assertThat(result).hasContent("COMPLETED 26 25 1");
    } finally {
      configuration.section(BatchConfig.class).launcher().stopAll(Duration.ofSeconds(30));
      app.stop();
    }
  }

  @Test
  void aSecondStartWithTheSameKeyIsRefusedNamingItAndTheFirstLosesNothing() throws Exception {
    Configuration configuration = ConfigLoader.read("app.yaml", YAML, dir, loader());
    Application app = start(configuration);
    try {
      long first =
          (Long)
              app.send("import", orders("a.csv", 30)).get(30, TimeUnit.SECONDS).variable("started");
      Path result = dir.resolve("results/instance-" + first + ".txt");
      await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(result));

      assertThatThrownBy(() -> app.send("import", orders("a.csv", 30)).join())
          .rootCause()
          .isInstanceOf(BatchStartRefusedException.class)
          .hasMessage(
              "Batch job 'orders' was started with key 'a.csv' already: instance "
                  + first
                  + " is COMPLETED. A second start with the same key would process the same input"
                  + " again, so it is refused (its message fails, nothing of it is stored); give"
                  + " other input another key");
      long other =
          (Long)
              app.send("import", orders("b.csv", 5)).get(30, TimeUnit.SECONDS).variable("started");

      assertThat(result).hasContent("COMPLETED 30 30 0");
      assertThat(BatchEngine.of(app).instances("orders", 10))
          .extracting(BatchInstance::id)
          .containsExactly(other, first);
    } finally {
      configuration.section(BatchConfig.class).launcher().stopAll(Duration.ofSeconds(30));
      app.stop();
    }
  }

  @Test
  void aStartStoppedWhileLoadingIsResumedByTheSameKeyLoadingOnlyTheRest() throws Exception {
    Configuration configuration = ConfigLoader.read("app.yaml", YAML, dir, loader());
    Application app = start(configuration);
    try {
      // The first delivery asks the launcher to stop (as sluice run does at SIGTERM) while the
      // loader reads record 200 of 400: it stores the group it reads, and stops.
      Orders stopping = new Orders(400, 200, configuration);
      assertThatThrownBy(
              () -> app.send("import", Message.of(stopping).withVariable("file", "a")).join())
          .rootCause()
          .hasMessageContaining("before its last; a start with the same key loads the rest");
      BatchInstance stopped = BatchEngine.of(app).instances("orders", 1).getFirst();
      Path result = dir.resolve("results/instance-" + stopped.id() + ".txt");
      await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(result));
      assertThat(Files.readString(result)).startsWith("STOPPED ");
      assertThat(stopped.loaded()).isBetween(200L, 399L);

      // The same message delivered again: the same instance, the rest of the records only.
      long resumed =
          (Long)
              app.send("import", Message.of(new Orders(400, -1, null)).withVariable("file", "a"))
                  .get(30, TimeUnit.SECONDS)
                  .variable("started");
      assertThat(resumed).isEqualTo(stopped.id());
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> Files.readString(result).equals("COMPLETED 400 400 0"));
      assertThat(BatchEngine.of(app).instances("orders", 10)).hasSize(1);
    } finally {
      configuration.section(BatchConfig.class).launcher().stopAll(Duration.ofSeconds(30));
      app.stop();
    }
  }

  /**
   * {@code count} orders; when {@code stopAt} is read, the configuration's launcher is asked to
   * stop every instance it started (from the loader's own thread, so it happens right there).
   */
  private record Orders(int count, int stopAt, Configuration configuration)
      implements Iterable<Object> {
    @Override
    public java.util.Iterator<Object> iterator() {
      return IntStream.range(0, count)
          .<Object>mapToObj(
              i -> {
                if (i == stopAt) {
                  try {
                    configuration.section(BatchConfig.class).launcher().stopAll(Duration.ZERO);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                }
                return Map.of("id", "o-" + i);
              })
          .iterator();
    }
  }

  @Test
  void aPayloadThatIsNoListFailsTheMessageSayingWhatItMustBe() {
    Configuration configuration = ConfigLoader.read("app.yaml", YAML, dir, loader());
    Application app = start(configuration);
    try {
      assertThatThrownBy(
              () -> app.send("import", Message.of("one line").withVariable("file", "c")).join())
          .rootCause()
          .hasMessageStartingWith(
              "Batch job 'orders' takes its records from the message that starts it, and this"
                  + " message's payload is a java.lang.String: it must be a list of records");
      assertThat(BatchEngine.of(app).instances("orders", 10)).isEmpty();
    } finally {
      app.stop();
    }
  }

  @Test
  void aJobOfTheMessageCannotRunOnItsOwn() {
    Configuration configuration = ConfigLoader.read("app.yaml", YAML, dir, loader());
    try (Application app = configuration.application().build()) {
      assertThatThrownBy(
              () ->
                  BatchEngine.of(app)
                      .run(configuration.section(BatchConfig.class).jobs().getFirst()))
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining(
              "input: value 'message' means batch job 'orders' takes its records from the message"
                  + " that starts it: start it from a flow with batch-execute");
    }
  }

  private ClassLoader loader() {
    return getClass().getClassLoader();
  }
}
