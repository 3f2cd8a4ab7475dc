package io.sluice.batch;

import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.expression.Template;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.Objects;

/**
 * Starts an instance of a configured batch job (Mule's {@code batch:execute}) and goes on: the
 * instance's id goes into a variable, the message is otherwise unchanged. A job whose input is the
 * message takes the elements of the payload as its records, and the flow goes on once they are
 * stored; any other job goes on at once. The job runs in this process, through the {@link
 * BatchLauncher} of the configuration; its result can go to a flow when it ends. The message's
 * variables are the instance's parameters: every record's message carries them. A key, made from
 * the message, names the input: a second start with a key already used is refused. A start refused
 * (the key used, an instance of the job running already, a payload with no records) fails the
 * message, naming why.
 */
public final class BatchExecuteProcessor implements Processor {

  /** The variable the instance's id goes into unless another is named. */
  public static final String DEFAULT_TARGET = "batchInstance";

  private final BatchLauncher launcher;
  private final String job;
  private final String target;
  private final String resultFlow;
  private final Template key;

  /**
   * Starts {@code job} through {@code launcher}, its id into variable {@code target}, its result to
   * flow {@code resultFlow} when it ends (null: nowhere).
   */
  public BatchExecuteProcessor(
      BatchLauncher launcher, String job, String target, String resultFlow) {
    this(launcher, job, target, resultFlow, null);
  }

  /**
   * Starts {@code job} through {@code launcher} with the key {@code key} makes from each message
   * (null: none), its id into variable {@code target}, its result to flow {@code resultFlow} when
   * it ends (null: nowhere).
   */
  public BatchExecuteProcessor(
      BatchLauncher launcher, String job, String target, String resultFlow, Template key) {
    this.launcher = Objects.requireNonNull(launcher, "launcher");
    this.job = Objects.requireNonNull(job, "job");
    this.target = Objects.requireNonNull(target, "target");
    this.resultFlow = resultFlow;
    this.key = key;
  }

  @Override
  public Message process(Message message) {
    long instance = launcher.start(job, resultFlow, message, key(message)).instance();
    return message.withVariable(target, instance);
  }

  private String key(Message message) {
    if (key == null) {
      return null;
    }
    Object value = key.evaluate(message);
    if (value == null || value.toString().isBlank()) {
      throw new SluiceException(
          "batch-execute of job '"
              + job
              + "': its key "
              + key.text()
              + " gave "
              + (value == null ? "null" : "'" + value + "'")
              + " for this message; a key must be a text that is not blank");
    }
    return value.toString();
  }

  /** Starting an instance writes its row to the store. */
  @Override
  public ProcessingType processingType() {
    return ProcessingType.BLOCKING_IO;
  }

  @Override
  public String name() {
    return "batch-execute(" + job + ")";
  }
}
