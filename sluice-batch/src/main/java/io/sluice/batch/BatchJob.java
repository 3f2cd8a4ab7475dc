package io.sluice.batch;

import io.sluice.batch.internal.MessageInput;
import io.sluice.core.ConfigProblems;
import io.sluice.core.ConfigurationException;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import io.sluice.core.spi.Processor;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A batch job: its input, read into blocks of {@code blockSize} records kept in the storage, and
 * the ordered steps each block goes through; how many failed records it tolerates; and how its
 * steps run ({@code auto} unless a fixed threading profile is given). Immutable; made by {@link
 * #builder(String)}, which reports every broken rule at once.
 */
public final class BatchJob {

  /** Records per block unless set. */
  public static final int DEFAULT_BLOCK_SIZE = 100;

  /** Failed records tolerated unless set: none. */
  public static final long DEFAULT_MAX_FAILED_RECORDS = 0;

  /** {@link Builder#maxFailedRecords} value for no limit. */
  public static final long UNLIMITED = -1;

  /** Failed records an instance keeps in the store unless set. */
  public static final int DEFAULT_KEEP_FAILED_RECORDS = 1_000;

  /** The most failed records an instance may be set to keep. */
  public static final int MAX_KEEP_FAILED_RECORDS = 1_000_000;

  private final String name;
  private final BatchInput input;
  private final BatchOutput output;
  private final int blockSize;
  private final List<BatchStep> steps;
  private final long maxFailedRecords;
  private final int keepFailedRecords;
  private final ProcessingStrategy strategy;
  private final Consumer<BatchResult> onComplete;
  private final List<Processor> onCompleteProcessors;

  private BatchJob(Builder builder) {
    this.name = builder.name;
    this.input = builder.input;
    this.output = builder.output;
    this.blockSize = builder.blockSize;
    this.steps = List.copyOf(builder.steps);
    this.maxFailedRecords = builder.maxFailedRecords;
    this.keepFailedRecords = builder.keepFailedRecords;
    this.strategy = builder.strategy;
    this.onComplete = builder.onComplete;
    this.onCompleteProcessors = List.copyOf(builder.onCompleteProcessors);
  }

  /** A builder of the job named {@code name}. */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** The job's name: its instances are found by it. */
  public String name() {
    return name;
  }

  /** Where its records come from. */
  public BatchInput input() {
    return input;
  }

  /**
   * Where its successful records are written after the last step, in input order and exactly once;
   * null when it has no output (the steps write what they write).
   */
  public BatchOutput output() {
    return output;
  }

  /** This job reading {@code records} (one start's records, when its input is the message). */
  BatchJob withInput(BatchInput records) {
    return new BatchJob(this, records);
  }

  private BatchJob(BatchJob job, BatchInput records) {
    this.name = job.name;
    this.input = records;
    this.output = job.output;
    this.blockSize = job.blockSize;
    this.steps = job.steps;
    this.maxFailedRecords = job.maxFailedRecords;
    this.keepFailedRecords = job.keepFailedRecords;
    this.strategy = job.strategy;
    this.onComplete = job.onComplete;
    this.onCompleteProcessors = job.onCompleteProcessors;
  }

  /** Records per block. */
  public int blockSize() {
    return blockSize;
  }

  /** The steps, in order. */
  public List<BatchStep> steps() {
    return steps;
  }

  /** How many failed records it tolerates: 0 none, {@link #UNLIMITED} any number. */
  public long maxFailedRecords() {
    return maxFailedRecords;
  }

  /**
   * How many failed records an instance keeps in the store, with their position, step, error and
   * payload (what {@link BatchInstances#failures} reads); beyond it only the failed count grows.
   */
  public int keepFailedRecords() {
    return keepFailedRecords;
  }

  /** How its steps run: {@code auto} or {@code synchronous} with a fixed number of threads. */
  public ProcessingStrategy strategy() {
    return strategy;
  }

  /** What runs with the result when an instance ends (completed, failed or stopped). */
  public Consumer<BatchResult> onComplete() {
    return onComplete;
  }

  /**
   * The processors the result goes through when an instance ends, as the payload of one message, in
   * a flow of the job's strategy (before {@link #onComplete()} runs); a failure there is logged.
   */
  public List<Processor> onCompleteProcessors() {
    return onCompleteProcessors;
  }

  /**
   * A fingerprint of what decides where a stored block goes: the steps' names, policies and
   * expressions, the block size, and the output (its file and columns). A stopped instance resumes
   * only with the same fingerprint.
   */
  public String definition() {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256")
              .digest(definitionText().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  /**
   * What {@link #definition()} fingerprints, readable: {@code blockSize=N}, then per step {@code
   * |name:accept:expression:aggregator size}, then the output; separated by {@code |}. Kept with an
   * instance, so that a node joining it with other steps is told what differs.
   */
  public String definitionText() {
    StringBuilder text = new StringBuilder("blockSize=").append(blockSize);
    for (BatchStep step : steps) {
      text.append('|').append(step.name()).append(':').append(step.accept());
      text.append(':').append(step.acceptExpression());
      text.append(':').append(step.aggregator() == null ? "-" : step.aggregator().size());
    }
    if (output != null) {
      // Only with an output, so that the fingerprints of jobs without one stay as they were.
      text.append("|output:").append(output.describe());
    }
    return text.toString();
  }

  /** Builds a {@link BatchJob}; {@link #build()} checks every rule. */
  public static final class Builder {
    private final String name;
    private BatchInput input;
    private BatchOutput output;
    private int blockSize = DEFAULT_BLOCK_SIZE;
    private final List<BatchStep> steps = new ArrayList<>();
    private long maxFailedRecords = DEFAULT_MAX_FAILED_RECORDS;
    private int keepFailedRecords = DEFAULT_KEEP_FAILED_RECORDS;
    private ProcessingStrategy strategy = ProcessingStrategy.defaultStrategy();
    private Consumer<BatchResult> onComplete = result -> {};
    private final List<Processor> onCompleteProcessors = new ArrayList<>();
    private int threads = 1;

    private Builder(String name) {
      this.name = name;
    }

    /** Where the records come from (required). */
    public Builder input(BatchInput value) {
      this.input = value;
      return this;
    }

    /**
     * Where the successful records go after the last step (none unless set): a file written in
     * input order, each record once across crashes ({@link BatchOutput}).
     */
    public Builder output(BatchOutput value) {
      this.output = value;
      return this;
    }

    /** Records per block (100 unless set): one row, one commit per step, per block. */
    public Builder blockSize(int value) {
      this.blockSize = value;
      return this;
    }

    /** Adds a step after those added before. */
    public Builder step(BatchStep value) {
      steps.add(value);
      return this;
    }

    /**
     * How many failed records the job tolerates (0 unless set; {@link #UNLIMITED} for any): once
     * more have failed, no new block is dispatched, and the instance fails.
     */
    public Builder maxFailedRecords(long value) {
      this.maxFailedRecords = value;
      return this;
    }

    /**
     * How many failed records an instance keeps in the store (1000 unless set; 0 to {@value
     * BatchJob#MAX_KEEP_FAILED_RECORDS}): each kept in the commit that counts it failed, so a
     * killed and resumed instance keeps each once. Not part of the {@linkplain
     * BatchJob#definition() definition}: a resumed instance keeps up to the bound of the run that
     * resumes it.
     */
    public Builder keepFailedRecords(int value) {
      this.keepFailedRecords = value;
      return this;
    }

    /** Runs the steps on a fixed pool of {@code threads} threads (Mule's threading profile). */
    public Builder threads(int threads) {
      this.threads = threads;
      if (threads >= 1) {
        this.strategy =
            new ProcessingStrategy.Synchronous(
                ThreadingProfile.builder()
                    .maxThreadsActive(threads)
                    .maxQueue(Math.max(1000, threads * 4))
                    .build());
      }
      return this;
    }

    /** How the steps run ({@code auto} unless set; {@code staged} is not for batch jobs). */
    public Builder strategy(ProcessingStrategy value) {
      this.strategy = value;
      return this;
    }

    /** What runs with the result when an instance ends. */
    public Builder onComplete(Consumer<BatchResult> value) {
      this.onComplete = value;
      return this;
    }

    /**
     * Adds a processor after those added before that the result goes through when an instance ends:
     * a report, a notification ({@link BatchJob#onCompleteProcessors()}).
     */
    public Builder onCompleteProcessor(Processor value) {
      onCompleteProcessors.add(value);
      return this;
    }

    /** The job; a {@link ConfigurationException} listing every broken rule. */
    public BatchJob build() {
      ConfigProblems problems = new ConfigProblems();
      problems.check(name != null && !name.isBlank(), "name", name, "must not be blank");
      problems.check(input != null, "input", null, "is required");
      problems.check(blockSize >= 1, "blockSize", blockSize, "must be at least 1");
      problems.check(!steps.isEmpty(), "steps", "[]", "a job needs at least one step");
      Set<String> names = new HashSet<>();
      for (BatchStep step : steps) {
        problems.check(
            names.add(step.name()), "steps." + step.name(), step.name(), "is named twice");
      }
      problems.check(
          output == null || !names.contains(BatchRecord.OUTPUT),
          "steps." + BatchRecord.OUTPUT,
          BatchRecord.OUTPUT,
          "a job with an output may not name a step '"
              + BatchRecord.OUTPUT
              + "': records the output cannot write fail there");
      problems.check(
          output == null || !(input instanceof MessageInput),
          "output",
          output == null ? null : "csv",
          "a job whose input is the message starts an instance per message, and each would"
              + " write the output file afresh over the one before: write from a step instead");
      problems.check(
          maxFailedRecords >= UNLIMITED,
          "maxFailedRecords",
          maxFailedRecords,
          "must be 0 or more, or -1 for no limit");
      problems.check(
          keepFailedRecords >= 0 && keepFailedRecords <= MAX_KEEP_FAILED_RECORDS,
          "keepFailedRecords",
          keepFailedRecords,
          "must be from 0 to " + MAX_KEEP_FAILED_RECORDS);
      problems.check(
          strategy instanceof ProcessingStrategy.Auto
              || strategy instanceof ProcessingStrategy.Synchronous,
          "strategy",
          strategy == null ? null : strategy.name(),
          "must be auto or synchronous (a fixed threading profile)");
      problems.check(threads >= 1, "threads", threads, "must be at least 1");
      problems.check(onComplete != null, "onComplete", null, "must not be null");
      problems.check(
          onCompleteProcessors.stream().allMatch(p -> p != null),
          "onComplete",
          null,
          "must not contain a null processor");
      problems.throwIfAny();
      return new BatchJob(this);
    }
  }
}
