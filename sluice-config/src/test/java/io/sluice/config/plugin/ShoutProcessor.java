package io.sluice.config.plugin;

import io.sluice.core.Message;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.Locale;

/** Shouts the payload: in capitals, followed by {@code marks} exclamation marks. */
public final class ShoutProcessor implements Processor {

  /** How many exclamation marks follow unless {@code marks} says. */
  public static final int DEFAULT_MARKS = 1;

  /** The most exclamation marks a shout takes. */
  public static final int MAX_MARKS = 10;

  private final String ending;

  /** A processor adding {@code marks} exclamation marks, from 1 to {@link #MAX_MARKS}. */
  public ShoutProcessor(int marks) {
    if (marks < 1 || marks > MAX_MARKS) {
      throw new IllegalArgumentException("must be from 1 to " + MAX_MARKS + ", was " + marks);
    }
    this.ending = "!".repeat(marks);
  }

  @Override
  public Message process(Message message) {
    String text = String.valueOf(message.payload());
    return message.withPayload(text.toUpperCase(Locale.ROOT) + ending);
  }

  @Override
  public ProcessingType processingType() {
    return ProcessingType.CPU_LITE; // no I/O: the auto strategy runs it in place
  }

  @Override
  public String name() {
    return "shout";
  }
}
