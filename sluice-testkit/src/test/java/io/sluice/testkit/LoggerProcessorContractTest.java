package io.sluice.testkit;

import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import io.sluice.core.processor.LoggerProcessor;
import io.sluice.core.spi.Processor;
import java.nio.file.Path;
import java.util.Map;
import org.slf4j.event.Level;

/**
 * The processor contract, run against the logger. Its category is enabled without an appender
 * (logback-test.xml), so the template is rendered on every call and nothing is printed.
 */
class LoggerProcessorContractTest extends ProcessorContractTest {

  @Override
  protected Processor newProcessor(Path workDir) {
    return new LoggerProcessor(
        Template.parse("logger.message", "got #[payload] from #[attributes.origin]"),
        Level.INFO,
        "contract.logger");
  }

  @Override
  protected Message message(int i) {
    return Message.of("payload-" + i, Map.of("origin", "source-" + i));
  }
}
