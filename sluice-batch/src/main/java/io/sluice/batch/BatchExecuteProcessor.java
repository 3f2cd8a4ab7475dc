package io.sluice.batch;

import io.sluice.core.Message;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.Objects;

/**
 * Starts an instance of a configured batch job (Mule's {@code batch:execute}) and goes on at once:
 * the instance's id goes into a variable, the message is otherwise unchanged. The job runs in this
 * process, through the {@link BatchLauncher} of the configuration; its result can go to a flow when
 * it ends. A start refused (an instance of the job runs already) fails the message, naming it.
 */
public final class BatchExecuteProcessor implements Processor {

  /** The variable the instance's id goes into unless another is named. */
  public static final String DEFAULT_TARGET = "batchInstance";

  private final BatchLauncher launcher;
  private final String job;
  private final String target;
  private final String resultFlow;

  /**
   * Starts {@code job} through {@code launcher}, its id into variable {@code target}, its result to
   * flow {@code resultFlow} when it ends (null: nowhere).
   */
  public BatchExecuteProcessor(
      BatchLauncher launcher, String job, String target, String resultFlow) {
    this.launcher = Objects.requireNonNull(launcher, "launcher");
    this.job = Objects.requireNonNull(job, "job");
    this.target = Objects.requireNonNull(target, "target");
    this.resultFlow = resultFlow;
  }

  @Override
  public Message process(Message message) {
    long instance = launcher.start(job, resultFlow).instance();
    return message.withVariable(target, instance);
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
