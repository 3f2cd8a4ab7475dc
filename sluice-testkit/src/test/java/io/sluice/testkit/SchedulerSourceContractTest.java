package io.sluice.testkit;

import io.sluice.core.Message;
import io.sluice.core.scheduler.SchedulerSource;
import io.sluice.core.spi.Source;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * The source contract, run against a fixed-frequency scheduler. A scheduler is given time, not
 * content: provoking it lets its next firing fall due. It promises no redelivery (a failed or
 * refused firing is skipped; the next one is a new message), so those cases are skipped.
 */
class SchedulerSourceContractTest extends SourceContractTest {

  @Override
  protected Source newSource(Path workDir) {
    return SchedulerSource.fixedFrequency(Duration.ofSeconds(1), Duration.ofSeconds(1));
  }

  @Override
  protected Predicate<Message> provoke(String content) {
    return message -> message.attribute("scheduledTime") != null;
  }
}
