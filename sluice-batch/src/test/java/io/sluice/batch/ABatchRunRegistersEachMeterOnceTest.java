package io.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A batch run's steps share the application's CPU pool: Micrometer warned at every run that {@code
 * sluice.pool.active} was registered twice, as the run made a second pool in the same registry.
 */
class ABatchRunRegistersEachMeterOnceTest {

  @TempDir Path dir;

  @Test
  void cpuIntensiveStepsRunOnTheApplicationsPoolAndNoMeterIsRegisteredTwice() {
    // Micrometer warns of the first duplicate in a process, then says it at DEBUG: listen to both.
    Logger micrometer = (Logger) LoggerFactory.getLogger("io.micrometer");
    Level level = micrometer.getLevel();
    micrometer.setLevel(Level.DEBUG);
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    micrometer.addAppender(logged);
    Set<String> threads = ConcurrentHashMap.newKeySet();
    try (EmbeddedBatch batch = new EmbeddedBatch(dir)) {
      BatchJob job =
          BatchJob.builder("numbers")
              .input(BatchInput.generator(200, i -> i))
              .blockSize(50)
              .step(
                  BatchStep.builder("square")
                      .processor(
                          Processor.of(
                              ProcessingType.CPU_INTENSIVE,
                              m -> {
                                threads.add(Thread.currentThread().getName());
                                long n = (Long) m.payload();
                                return m.withPayload(n * n);
                              }))
                      .build())
              .build();

      BatchResult result = batch.engine.start(job).result().join();

      assertThat(result.state()).isEqualTo(BatchState.COMPLETED);
      assertThat(result.successful()).isEqualTo(200);
      assertThat(batch.application.meterRegistry().find("sluice.pool.active").gauges()).hasSize(1);
    } finally {
      micrometer.detachAppender(logged);
      micrometer.setLevel(level);
    }
    List<String> duplicates =
        logged.list.stream()
            .map(ILoggingEvent::getFormattedMessage)
            .filter(message -> message.contains("already registered"))
            .toList();
    assertThat(duplicates).isEmpty();
    assertThat(threads).isNotEmpty().allSatisfy(name -> assertThat(name).startsWith("sluice-cpu-"));
  }
}
