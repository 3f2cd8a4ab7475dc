package io.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Source;
import io.sluice.core.spi.SourceContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A batch job whose records a flow source submits, acknowledged only once stored. */
class SourceInputTest {

  @TempDir Path dir;
  private EmbeddedBatch batch;
  private BatchEngine engine;

  @BeforeEach
  void open() {
    batch = new EmbeddedBatch(dir);
    engine = batch.engine;
  }

  @AfterEach
  void close() {
    batch.close();
  }

  /**
   * A queue consumer's shape: submits the numbers 0 to count − 1 from a thread of its own, with at
   * most {@code unacknowledged} messages not yet completed (fewer than a block), and notes at each
   * completion how many records the job had stored.
   */
  private static final class Consumer implements Source {
    final int count;
    final Semaphore window;
    final ConcurrentLinkedQueue<long[]> acks = new ConcurrentLinkedQueue<>();
    final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    final AtomicReference<LongSupplier> storedSoFar = new AtomicReference<>(() -> -1);
    volatile boolean stopped;
    Thread thread;

    Consumer(int count, int unacknowledged) {
      this.count = count;
      this.window = new Semaphore(unacknowledged);
    }

    @Override
    public void start(SourceContext context) {
      thread =
          Thread.ofPlatform()
              .name("consumer")
              .start(
                  () -> {
                    for (long i = 0; i < count && !stopped; i++) {
                      window.acquireUninterruptibly();
                      CompletableFuture<Message> done = context.submit(Message.of(i));
                      long n = i;
                      done.whenComplete(
                          (m, e) -> {
                            if (e != null) {
                              failures.add(e);
                            } else {
                              acks.add(new long[] {n, storedSoFar.get().getAsLong()});
                            }
                            window.release();
                          });
                    }
                  });
    }

    @Override
    public void stop() {
      stopped = true;
    }
  }

  @Test
  void everyMessageIsLoadedOnceAndCompletesOnlyAfterItsBlockIsStored() throws Exception {
    Consumer consumer = new Consumer(500, 7);
    BatchJob job =
        BatchJob.builder("queued")
            .input(BatchInput.source(consumer, Duration.ofMillis(500)))
            .blockSize(50)
            .step(
                BatchStep.builder("double")
                    .processor(
                        Processor.of(
                            ProcessingType.CPU_LITE, m -> m.withPayload((Long) m.payload() * 2)))
                    .build())
            .build();

    BatchEngine.Execution execution = engine.start(job);
    consumer.storedSoFar.set(() -> execution.progress().loaded());
    BatchResult result = execution.result().join();

    assertThat(result.state()).isEqualTo(BatchState.COMPLETED);
    assertThat(result.loaded()).isEqualTo(500);
    assertThat(result.processed()).isEqualTo(500);
    assertThat(result.failed()).isZero();
    assertThat(consumer.failures).isEmpty();
    assertThat(consumer.acks).hasSize(500);
    List<long[]> seen = consumer.acks.stream().filter(a -> a[1] >= 0).toList();
    // Seven at most wait for a block of fifty: blocks are stored part-full, none waits to fill.
    assertThat(seen).isNotEmpty().allSatisfy(a -> assertThat(a[1]).isGreaterThan(a[0]));
  }

  @Test
  void theInputEndsAfterItsQuietTimeAndStopsTheSource() throws Exception {
    Consumer consumer = new Consumer(1, 1);
    BatchJob job =
        BatchJob.builder("one")
            .input(BatchInput.source(consumer, Duration.ofMillis(200)))
            .step(
                BatchStep.builder("pass")
                    .processor(Processor.of(ProcessingType.CPU_LITE, m -> m))
                    .build())
            .build();

    BatchResult result = engine.start(job).result().join();
    consumer.thread.join(5_000);

    assertThat(result.loaded()).isEqualTo(1);
    assertThat(consumer.acks).hasSize(1);
    assertThat(consumer.stopped).as("the source is stopped when the input ends").isTrue();
  }
}
