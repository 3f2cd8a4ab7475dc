package io.sluice.core.processor;

import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/** Logs a message template at a level, under a category, and passes the message on unchanged. */
public final class LoggerProcessor implements Processor {

  private final Template template;
  private final Level level;
  private final String category;
  private Logger logger;

  /**
   * Logs {@code template} (with {@code #[...]} expressions) at {@code level}; {@code category} null
   * means {@code sluice.flow.<flow name>}.
   */
  public LoggerProcessor(Template template, Level level, String category) {
    this.template = template;
    this.level = level;
    this.category = category;
  }

  @Override
  public void start(FlowContext context) {
    logger =
        LoggerFactory.getLogger(category != null ? category : "sluice.flow." + context.flowName());
  }

  @Override
  public Message process(Message message) {
    if (logger.isEnabledForLevel(level)) {
      logger.atLevel(level).log(template.render(message));
    }
    return message;
  }

  @Override
  public ProcessingType processingType() {
    return ProcessingType.CPU_LITE;
  }

  @Override
  public String name() {
    return "logger";
  }
}
