package io.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.Processor;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract every {@link Processor} keeps, to extend once per implementation: it returns a
 * message, one instance serves many threads at once with the results a single thread gets, and it
 * lives between one {@code start} and one {@code stop}.
 *
 * <p>A subclass builds the processor ({@link #newProcessor}) and the messages it is fed ({@link
 * #message}); it may say which part of a result must match between runs ({@link #outcome}).
 */
public abstract class ProcessorContractTest {

  /** How many threads call the same instance at once. */
  protected static final int THREADS = 16;

  /** How many messages each thread processes. */
  protected static final int MESSAGES_PER_THREAD = 25;

  /** A scratch directory per test, for processors that write files. */
  @TempDir protected Path workDir;

  /** A new, unstarted processor working under {@code workDir} when it needs a directory. */
  protected abstract Processor newProcessor(Path workDir) throws Exception;

  /**
   * The {@code i}th input message (from 0). Messages should differ, so that a processor mixing up
   * its callers' messages shows in the results.
   */
  protected abstract Message message(int i);

  /**
   * The part of a result that must be the same however many threads run: by default the payload (a
   * {@code byte[]} compared by content), the attributes and the variables.
   */
  protected Object outcome(Message result) {
    Object payload =
        result.payload() instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : result.payload();
    return Arrays.asList(payload, result.attributes(), result.variables());
  }

  /** The flow context the processor is started with; a {@link RecordingSourceContext} here. */
  protected FlowContext flowContext() {
    return new RecordingSourceContext();
  }

  /** A started processor returns a message, never null. */
  @Test
  public void aProcessorReturnsANonNullMessage() throws Exception {
    Processor processor = started();
    try {
      assertThat(processor.process(message(0))).isNotNull();
    } finally {
      processor.stop();
    }
  }

  /**
   * One instance called from {@link #THREADS} threads at once gives each message the outcome a
   * single thread gives it.
   */
  @Test
  public void oneInstanceServesSixteenThreadsAtOnceWithTheResultsOfOneThread() throws Exception {
    Processor processor = started();
    try {
      int total = THREADS * MESSAGES_PER_THREAD;
      List<Object> alone = new ArrayList<>();
      for (int i = 0; i < total; i++) {
        alone.add(outcome(processor.process(message(i))));
      }

      List<Object> together = processConcurrently(processor, total);

      assertThat(together).containsExactlyElementsOf(alone);
    } finally {
      processor.stop();
    }
  }

  /** One start, messages, one stop: the lifecycle a flow gives every processor. */
  @Test
  public void startAndStopMayBeCalledOnceEachAroundUse() throws Exception {
    Processor processor = newProcessor(workDir);

    processor.start(flowContext());
    Message result = processor.process(message(0));
    processor.stop();

    assertThat(result).isNotNull();
  }

  /** A flow that stops before any message arrived starts and stops its processors all the same. */
  @Test
  public void aProcessorStartedAndStoppedWithoutMessagesIsFine() throws Exception {
    Processor processor = newProcessor(workDir);

    processor.start(flowContext());
    processor.stop();

    assertThat(processor.name()).isNotBlank();
  }

  /** Every processor says what it spends its time on, even before it starts. */
  @Test
  public void processingTypeIsNotNull() throws Exception {
    assertThat(newProcessor(workDir).processingType()).isNotNull();
  }

  /** Every processor has a name for logs, metrics and errors, even before it starts. */
  @Test
  public void nameIsNotBlank() throws Exception {
    assertThat(newProcessor(workDir).name()).isNotBlank();
  }

  private Processor started() throws Exception {
    Processor processor = newProcessor(workDir);
    processor.start(flowContext());
    return processor;
  }

  /** Processes messages 0..total-1 on {@link #THREADS} threads started together, in input order. */
  private List<Object> processConcurrently(Processor processor, int total) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<List<Object>>> slices = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int first = t * MESSAGES_PER_THREAD;
        slices.add(
            threads.submit(
                () -> {
                  go.await();
                  List<Object> outcomes = new ArrayList<>();
                  for (int i = first; i < first + MESSAGES_PER_THREAD; i++) {
                    outcomes.add(outcome(processor.process(message(i))));
                  }
                  return outcomes;
                }));
      }
      go.countDown();
      List<Object> outcomes = new ArrayList<>();
      for (Future<List<Object>> slice : slices) {
        outcomes.addAll(slice.get(30, TimeUnit.SECONDS));
      }
      return outcomes;
    } finally {
      threads.shutdownNow();
      assertThat(threads.awaitTermination(10, TimeUnit.SECONDS))
          .as("the test's threads ended")
          .isTrue();
    }
  }
}
