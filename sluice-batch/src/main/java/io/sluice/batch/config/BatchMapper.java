package io.sluice.batch.config;

import io.sluice.batch.AcceptPolicy;
import io.sluice.batch.Aggregator;
import io.sluice.batch.BatchInput;
import io.sluice.batch.BatchJob;
import io.sluice.batch.BatchLauncher;
import io.sluice.batch.BatchOutput;
import io.sluice.batch.BatchStep;
import io.sluice.config.spi.ComponentKind;
import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProblemCollector;
import io.sluice.config.spi.SourceMap;
import io.sluice.config.spi.Threads;
import io.sluice.config.spi.UniqueNames;
import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Source;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Maps {@code batch:}: each job's input, steps (their processors and aggregators mapped as a flow's
 * are) and on-complete processors. The batch builders check their own rules; their problems are
 * given the path of the key they came from ({@code batch[0].steps[1].acceptExpression}), so each is
 * reported at its line.
 */
final class BatchMapper {

  /** How long a source input may stay quiet before the input ends, when {@code quiet} is absent. */
  static final Duration DEFAULT_QUIET = Duration.ofSeconds(5);

  /** The input kinds of this module; other modules bring theirs ({@link BatchInputComponent}). */
  private static final List<String> BUILT_IN_KINDS =
      List.of("csv", "jsonLines", "generator", "source", "message");

  private final MappingContext context;
  private final ProblemCollector problems;

  BatchMapper(MappingContext context) {
    this.context = context;
    this.problems = context.problems();
  }

  /** The jobs of {@code items}; the broken ones are recorded and left out. */
  BatchConfig map(List<ConfigNode> items, BatchLauncher launcher) {
    UniqueNames names = new UniqueNames("batch job", problems);
    List<BatchJob> jobs = new ArrayList<>();
    for (ConfigNode node : items) {
      names.add(node);
      BatchJob job = job(node);
      if (job != null) {
        jobs.add(job);
      }
    }
    launcher.add(jobs);
    return new BatchConfig(jobs, launcher);
  }

  private BatchJob job(ConfigNode node) {
    BatchJob.Builder job = BatchJob.builder(node.text("name", null));
    job.input(input(node.get("input")));
    ConfigNode output = node.get("output");
    if (output.isPresent()) {
      job.output(output(output));
    }
    job.blockSize(node.integer("blockSize", BatchJob.DEFAULT_BLOCK_SIZE));
    job.maxFailedRecords(
        node.integer("maxFailedRecords", (int) BatchJob.DEFAULT_MAX_FAILED_RECORDS));
    job.keepFailedRecords(node.integer("keepFailedRecords", BatchJob.DEFAULT_KEEP_FAILED_RECORDS));
    threads(node, job);
    UniqueNames stepNames = new UniqueNames("step", problems);
    for (ConfigNode stepNode : node.items("steps")) {
      BatchStep step = stepNames.add(stepNode) ? step(stepNode) : null;
      if (step != null) {
        job.step(step);
      }
    }
    context.processors(node, "onComplete").forEach(job::onCompleteProcessor);
    // An input or steps written but broken were reported where they are broken, not as missing.
    return problems.attempt(
        node.path(),
        path ->
            path.equals("input") && node.has("input") || path.equals("steps") && node.has("steps")
                ? null
                : SourceMap.child(node.path(), path),
        job::build);
  }

  /** {@code threads}: {@code auto} (the default) or a number of threads; else a problem. */
  private void threads(ConfigNode node, BatchJob.Builder job) {
    ConfigNode threads = node.get("threads");
    if (!threads.isPresent() || "auto".equals(threads.node().asText())) {
      return;
    }
    if (threads.node().isIntegralNumber() && threads.node().canConvertToInt()) {
      job.threads(threads.node().intValue()); // build() checks it is at least 1
    } else {
      problems.add(threads.path(), threads.node().asText(), Threads.RULE);
    }
  }

  private BatchInput input(ConfigNode node) {
    if (!node.isPresent()) {
      return null; // build() says it is required
    }
    List<String> inputKinds = new ArrayList<>(BUILT_IN_KINDS);
    inputKinds.addAll(context.componentKeys(ComponentKind.BATCH_INPUT));
    List<String> kinds = inputKinds.stream().filter(node::has).toList();
    if (kinds.size() != 1) {
      // The schema names the kinds: exactly one of them.
      problems.add(
          node.path(),
          kinds.isEmpty() ? null : String.join(", ", kinds),
          "must hold exactly one of: " + String.join(", ", inputKinds));
      return null;
    }
    String kind = kinds.getFirst();
    if (node.has("quiet") && !kind.equals("source")) {
      problems.add(
          node.get("quiet").path(),
          node.text("quiet", null),
          "applies only to a source input (how long it may go without a message before the"
              + " input ends); "
              + kind
              + " ends at the end of its records");
    }
    return switch (kind) {
      case "csv" -> file(node, kind, BatchInput::csv);
      case "jsonLines" -> file(node, kind, BatchInput::jsonLines);
      case "generator" -> generator(node.get(kind));
      case "message" -> BatchInput.message();
      case "source" -> sourceInput(node);
      default -> (BatchInput) context.component(ComponentKind.BATCH_INPUT, kind, node.get(kind));
    };
  }

  /**
   * {@code output}: a CSV file ({@code csv}, relative to the configuration file) of {@code
   * columns}; the schema requires both, CsvOutput checks the columns (named, none twice).
   */
  private BatchOutput output(ConfigNode node) {
    Path file = context.path(node, "csv");
    List<String> columns = node.texts("columns");
    if (file == null || !node.has("columns")) {
      return null;
    }
    // CsvOutput names its problems output.columns: the parent's path is the job's.
    return problems.attempt(SourceMap.parent(node.path()), () -> BatchOutput.csv(file, columns));
  }

  /**
   * Records from any flow source ({@code source}), the input ending once it went {@code quiet} for
   * that long.
   */
  private BatchInput sourceInput(ConfigNode node) {
    Source source = context.source(node.get("source"));
    Duration quiet = node.duration("quiet", DEFAULT_QUIET);
    if (source == null || quiet == null) {
      return null;
    }
    if (!quiet.isPositive()) {
      problems.add(node.get("quiet").path(), node.text("quiet", null), "must be positive");
      return null;
    }
    return BatchInput.source(source, quiet);
  }

  private BatchInput file(ConfigNode node, String key, Function<Path, BatchInput> input) {
    Path file = context.path(node, key);
    return file == null ? null : input.apply(file);
  }

  /** Records whose payloads a template makes from their index (its {@code payload}). */
  private BatchInput generator(ConfigNode node) {
    if (!node.has("count")) {
      problems.add(node.get("count").path(), null, "is required");
      return null;
    }
    int count = node.integer("count", 0);
    Template payload = context.template(node, "payload", "#[payload]");
    if (payload == null) {
      return null;
    }
    return problems.attempt(
        node.get("count").path(),
        () -> BatchInput.generator(count, index -> payload.evaluate(Message.of(index))));
  }

  private BatchStep step(ConfigNode node) {
    String name = node.text("name", null);
    BatchStep.Builder step = BatchStep.builder(name);
    step.accept(node.enumValue("accept", AcceptPolicy.class, AcceptPolicy.NO_FAILURES));
    step.acceptExpression(node.text("acceptExpression", null));
    context.processors(node, "processors").forEach(step::processor);
    ConfigNode aggregator = node.get("aggregator");
    if (aggregator.isPresent()) {
      step.aggregator(aggregator(aggregator));
    }
    // BatchStep names its problems steps.<name>.<key> (and steps for its name): here, the step's.
    String named = "steps." + name;
    return problems.attempt(
        node.path(),
        path ->
            path.equals("steps")
                ? node.get("name").path()
                : path.startsWith(named + ".")
                    ? node.path() + path.substring(named.length())
                    : SourceMap.child(node.path(), path),
        step::build);
  }

  private Aggregator aggregator(ConfigNode node) {
    List<Processor> sink = context.processors(node, "sink");
    Processor[] processors = sink.toArray(Processor[]::new);
    // Aggregator names its problems aggregator.size and aggregator.sink: the parent's path is the
    // step's.
    String step = SourceMap.parent(node.path());
    if (node.bool("streaming", false)) {
      return problems.attempt(step, () -> Aggregator.streaming(processors));
    }
    if (!node.has("size")) {
      problems.add(node.path(), null, "must hold exactly one of: size, streaming");
      return null;
    }
    int size = node.integer("size", 1);
    return problems.attempt(step, () -> Aggregator.size(size, processors));
  }
}
