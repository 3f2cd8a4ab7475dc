package io.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.ConfigurationException;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.logging.LogContext;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.Storage;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Batch jobs on the embedded store: steps, accept policies, failures, the limit, stop, resume. */
class BatchEngineTest {

  @TempDir Path dir;
  private EmbeddedBatch batch;
  private Storage storage;
  private Application application;
  private BatchEngine engine;

  @BeforeEach
  void open() {
    batch = new EmbeddedBatch(dir);
    storage = batch.storage;
    application = batch.application;
    engine = batch.engine;
  }

  @AfterEach
  void close() {
    batch.close();
  }

  /** Doubles a number; fails the record whose number ends in 7 when {@code failSevens}. */
  private static Processor doubler(boolean failSevens) {
    return Processor.of(
        ProcessingType.CPU_LITE,
        m -> {
          long n = (Long) m.payload();
          if (failSevens && n % 10 == 7) {
            throw new IllegalArgumentException("no sevens: " + n);
          }
          return m.withPayload(n * 2);
        });
  }

  private static BatchJob.Builder numbers(long count) {
    return BatchJob.builder("numbers").input(BatchInput.generator(count, i -> i)).blockSize(50);
  }

  @Test
  void everyRecordGoesThroughTheStepsItsPoliciesLetItIntoAndIsCountedOnce() {
    AtomicLong repaired = new AtomicLong();
    BatchJob job =
        numbers(1000)
            .maxFailedRecords(BatchJob.UNLIMITED)
            .step(BatchStep.builder("double").processor(doubler(true)).build())
            .step(
                BatchStep.builder("report")
                    .accept(AcceptPolicy.ONLY_FAILURES)
                    .processor(
                        Processor.of(
                            ProcessingType.CPU_LITE,
                            m -> {
                              repaired.incrementAndGet();
                              return m;
                            }))
                    .build())
            .step(
                BatchStep.builder("evens")
                    .acceptExpression("payload % 4 == 0")
                    .processor(doubler(false))
                    .build())
            .build();

    BatchEngine.Execution execution = engine.start(job);
    BatchResult result = execution.result().join();

    BatchProgress progress = execution.progress();
    assertThat(progress.loaded()).isEqualTo(1000);
    assertThat(progress.processed()).isEqualTo(1000);
    assertThat(progress.failed()).isEqualTo(100);
    assertThat(progress.expected()).hasValue(1000);
    assertThat(progress.eta()).hasValue(java.time.Duration.ZERO);
    assertThat(result.state()).isEqualTo(BatchState.COMPLETED);
    assertThat(result.loaded()).isEqualTo(1000);
    assertThat(result.processed()).isEqualTo(1000);
    assertThat(result.failed()).isEqualTo(100);
    assertThat(result.successful()).isEqualTo(900);
    assertThat(result.steps())
        .containsExactly(
            Map.entry("double", new StepCounts(1000, 100, 0)),
            Map.entry("report", new StepCounts(100, 0, 900)),
            Map.entry("evens", new StepCounts(500, 0, 500)));
    assertThat(repaired).hasValue(100);
    assertThat(result.failures()).hasSize(BatchResult.SAMPLES);
    assertThat(result.failures().getFirst().failedAt()).isEqualTo("double");
    assertThat(result.failures().getFirst().error())
        .startsWith("IllegalArgumentException: no sevens: ");
    assertThat(result.failedBeyondLimit()).isZero();
    assertThat(engine.instance(result.instance()).orElseThrow().state())
        .isEqualTo(BatchState.COMPLETED);
    assertThat(records("loaded")).isEqualTo(1000);
    assertThat(records("processed")).isEqualTo(1000);
    assertThat(records("failed")).isEqualTo(100);
  }

  /** The job's {@code sluice.batch.records} counter for {@code outcome}. */
  private double records(String outcome) {
    return application
        .meterRegistry()
        .get("sluice.batch.records")
        .tags("job", "numbers", "outcome", outcome)
        .counter()
        .count();
  }

  @Test
  void whatAStepLogsNamesTheStepsFlowTheRecordAndTheInstance() {
    Set<String> seen = ConcurrentHashMap.newKeySet();
    BatchJob job =
        numbers(100)
            .step(
                BatchStep.builder("look")
                    .processor(
                        Processor.of(
                            ProcessingType.BLOCKING_IO,
                            m -> {
                              Map<String, String> logged = LogContext.entries();
                              seen.add(
                                  logged.get(LogContext.FLOW)
                                      + " "
                                      + logged.get(LogContext.BATCH_INSTANCE)
                                      + " "
                                      + m.id().equals(logged.get(LogContext.MESSAGE_ID)));
                              return m;
                            }))
                    .build())
            .build();

    BatchResult result = engine.start(job).result().join();

    assertThat(seen)
        .containsExactly("batch." + job.name() + ".look " + result.instance() + " true");
    assertThat(
            application
                .meterRegistry()
                .get("sluice.batch.step.duration")
                .tag("job", "numbers")
                .tag("step", "look")
                .timer()
                .count())
        .as("each of the two blocks of 50 timed through the step")
        .isEqualTo(2);
  }

  @Test
  void passingMaxFailedRecordsStopsDispatchingAndSaysByHowMuchBlocksInFlightWentBeyond() {
    BatchJob job =
        numbers(5000)
            .maxFailedRecords(3)
            .step(BatchStep.builder("double").processor(doubler(true)).build())
            .build();

    BatchResult result = engine.start(job).result().join();

    assertThat(result.state()).isEqualTo(BatchState.FAILED);
    assertThat(result.failed()).isGreaterThan(3);
    assertThat(result.failedBeyondLimit()).isEqualTo(result.failed() - 3);
    assertThat(result.processed()).as("blocks not dispatched").isLessThan(5000);
    assertThat(result.message()).contains("more than maxFailedRecords 3");
    assertThatThrownBy(() -> engine.resume(result.instance(), job))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("is FAILED: it ended and cannot be resumed");
  }

  @Test
  void aStoppedInstanceResumesWhereItStoppedAndEachStepCommitsEachRecordOnce() {
    AtomicReference<BatchEngine.Execution> running = new AtomicReference<>();
    AtomicLong seen = new AtomicLong();
    Processor stopper =
        Processor.of(
            ProcessingType.CPU_LITE,
            m -> {
              if (seen.incrementAndGet() == 1000) {
                running.get().stop();
              }
              return m;
            });
    BatchJob job =
        numbers(3000)
            .step(BatchStep.builder("watch").processor(stopper).build())
            .step(BatchStep.builder("double").processor(doubler(false)).build())
            .build();
    running.set(engine.start(job));
    BatchResult stopped = running.get().result().join();
    assertThat(stopped.state()).isEqualTo(BatchState.STOPPED);
    assertThat(stopped.processed()).isLessThan(3000);

    BatchResult resumed = engine.run(job).result().join();

    assertThat(resumed.instance())
        .as("run resumes the unfinished instance")
        .isEqualTo(stopped.instance());
    assertThat(resumed.state()).isEqualTo(BatchState.COMPLETED);
    assertThat(resumed.loaded()).isEqualTo(3000);
    assertThat(resumed.processed()).isEqualTo(3000);
    assertThat(resumed.processedThisRun())
        .as("the rate counts this run's records only")
        .isEqualTo(3000 - stopped.processed());
    assertThat(resumed.steps())
        .containsExactly(
            Map.entry("watch", new StepCounts(3000, 0, 0)),
            Map.entry("double", new StepCounts(3000, 0, 0)));
    assertThat(seen).as("no record ran a step twice after a graceful stop").hasValue(3000);
  }

  /** A sink that keeps every group it is handed (payloads), failing groups {@code fails} picks. */
  private static final class GroupSink implements Processor {
    final List<List<Object>> groups = new CopyOnWriteArrayList<>();
    final java.util.function.Predicate<List<?>> fails;

    GroupSink(java.util.function.Predicate<List<?>> fails) {
      this.fails = fails;
    }

    @Override
    public Message process(Message message) {
      List<?> group = (List<?>) message.payload();
      assertThat((List<?>) message.variable("positions")).hasSameSizeAs(group);
      if (fails.test(group)) {
        throw new IllegalStateException("the database refused the group");
      }
      groups.add(List.copyOf(group));
      return message;
    }

    @Override
    public ProcessingType processingType() {
      return ProcessingType.CPU_LITE;
    }
  }

  @Test
  void anAggregatorHandsTheSinkGroupsOfItsSizeAndEachProcessedRecordOnce() {
    GroupSink sink = new GroupSink(group -> false);
    BatchJob job =
        numbers(1000)
            .maxFailedRecords(BatchJob.UNLIMITED)
            .step(
                BatchStep.builder("double")
                    .processor(doubler(true))
                    .aggregator(Aggregator.size(30, sink))
                    .build())
            .build();

    BatchResult result = engine.start(job).result().join();

    assertThat(result.state()).isEqualTo(BatchState.COMPLETED);
    assertThat(result.processed()).isEqualTo(1000);
    List<Object> handed = sink.groups.stream().flatMap(List::stream).toList();
    assertThat(handed).hasSize(900).doesNotHaveDuplicates();
    assertThat(handed).allMatch(n -> (Long) n % 2 == 0);
    assertThat(sink.groups).filteredOn(g -> g.size() != 30).hasSizeLessThanOrEqualTo(1);
    assertThat(sink.groups).hasSize(30); // 900 records in groups of 30
  }

  @Test
  void aStreamingAggregatorHandsOverEachBlockAsItComes() {
    GroupSink sink = new GroupSink(group -> false);
    BatchJob job =
        numbers(1000)
            .step(
                BatchStep.builder("double")
                    .processor(doubler(false))
                    .aggregator(Aggregator.streaming(sink))
                    .build())
            .build();

    BatchResult result = engine.start(job).result().join();

    assertThat(result.state()).isEqualTo(BatchState.COMPLETED);
    assertThat(sink.groups.stream().mapToInt(List::size).sum()).isEqualTo(1000);
    assertThat(sink.groups).allMatch(g -> g.size() <= 50);
  }

  @Test
  void aGroupTheSinkFailsFailsItsRecordsAtTheStepAndTheJobGoesOn() {
    GroupSink sink = new GroupSink(group -> group.contains(40L));
    BatchJob job =
        numbers(200)
            .maxFailedRecords(BatchJob.UNLIMITED)
            .step(
                BatchStep.builder("double")
                    .processor(doubler(false))
                    .aggregator(Aggregator.size(25, sink))
                    .build())
            .build();

    BatchResult result = engine.start(job).result().join();

    assertThat(result.state()).isEqualTo(BatchState.COMPLETED);
    assertThat(result.failed()).isEqualTo(25);
    assertThat(result.successful()).isEqualTo(175);
    assertThat(result.steps()).containsEntry("double", new StepCounts(200, 25, 0));
    assertThat(result.failures().getFirst().error())
        .isEqualTo(
            "the aggregator's sink failed: IllegalStateException: the database refused the group");
    assertThat(sink.groups.stream().mapToInt(List::size).sum()).isEqualTo(175);
  }

  @Test
  void aThrottledCallIsMadeAgainAfterAPauseAndTheRecordSucceeds() {
    Map<Long, AtomicLong> calls = new java.util.concurrent.ConcurrentHashMap<>();
    BatchJob job =
        numbers(200)
            .step(
                BatchStep.builder("call")
                    .processor(
                        m -> {
                          long n = (Long) m.payload();
                          if (calls.computeIfAbsent(n, k -> new AtomicLong()).incrementAndGet()
                              <= 2) {
                            throw new io.sluice.core.ThrottledException("429 from the service");
                          }
                          return m;
                        })
                    .build())
            .build();

    BatchResult result = engine.start(job).result().join();

    assertThat(result.state()).isEqualTo(BatchState.COMPLETED);
    assertThat(result.failed()).isZero();
    assertThat(result.steps()).containsEntry("call", new StepCounts(200, 0, 0));
    assertThat(calls.values()).allMatch(c -> c.get() == 3);
    assertThat(
            application
                .meterRegistry()
                .get("sluice.batch.throttled.retries")
                .tag("job", "numbers")
                .counter()
                .count())
        .isEqualTo(400);
  }

  @Test
  void aFixedThreadingProfileRunsTheSameJobToTheSameCounts() {
    BatchJob job =
        numbers(1000)
            .threads(4)
            .maxFailedRecords(BatchJob.UNLIMITED)
            .step(
                BatchStep.builder("double")
                    .processor(
                        m -> {
                          assertThat(Thread.currentThread().isVirtual()).isFalse();
                          return doubler(true).process(m);
                        })
                    .build())
            .build();

    BatchResult result = engine.start(job).result().join();

    assertThat(result.state()).isEqualTo(BatchState.COMPLETED);
    assertThat(result.steps()).containsEntry("double", new StepCounts(1000, 100, 0));
  }

  @Test
  void aStepWhoseAcceptExpressionDoesNotCompileIsRefusedNamingTheStep() {
    assertThatThrownBy(() -> BatchStep.builder("pick").acceptExpression("payload >").build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("steps.pick.acceptExpression")
        .hasMessageContaining("payload >");
    assertThatThrownBy(() -> BatchJob.builder("empty").blockSize(0).build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("input")
        .hasMessageContaining("blockSize")
        .hasMessageContaining("a job needs at least one step");
  }

  @Test
  void aResumeOfAnInstanceWhoseStepsChangedIsRefused() {
    BatchJob first =
        numbers(10).step(BatchStep.builder("double").processor(doubler(false)).build()).build();
    long id = engine.start(first).result().join().instance();
    Message unused = Message.of(id);
    BatchJob changed =
        numbers(10).step(BatchStep.builder("triple").processor(doubler(false)).build()).build();

    assertThatThrownBy(() -> engine.resume(id, changed))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("is COMPLETED");
    assertThat(unused.payload()).isEqualTo(id);
  }

  @Test
  void theOnCompleteProcessorsGetTheResultAndTheirFailureLeavesItAsItIs() {
    List<Object> reported = new CopyOnWriteArrayList<>();
    BatchJob job =
        numbers(100)
            .step(BatchStep.builder("double").processor(doubler(false)).build())
            .onCompleteProcessor(
                Processor.of(
                    ProcessingType.CPU_LITE,
                    m -> {
                      reported.add(m.payload());
                      return m;
                    }))
            .onCompleteProcessor(
                Processor.of(
                    ProcessingType.CPU_LITE,
                    m -> {
                      throw new IllegalStateException("the report could not be mailed");
                    }))
            .build();

    BatchResult result = engine.start(job).result().join();

    assertThat(result.state()).isEqualTo(BatchState.COMPLETED);
    assertThat(reported).containsExactly(result);
    assertThat(engine.instance(result.instance()).orElseThrow().state())
        .isEqualTo(BatchState.COMPLETED);
  }
}
