package io.sluice.cli;

import io.sluice.config.spi.Durations;
import io.sluice.jobs.spi.NewJob;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code sluice jobs create}: creates one job with a text payload, or every job of a JSON-lines
 * file (or of standard input) in one transaction.
 */
@Command(
    name = "create",
    mixinStandardHelpOptions = true,
    header = "Creates a job with a text payload, or the jobs of a JSON-lines file.",
    description = {
      "Creates a job whose payload is the text given, written with the file's "
          + "serialization, and prints its id. A flow handler gets the text as the message's "
          + "payload.",
      "",
      "With --file, creates the jobs of a file (- for standard input), one JSON object a "
          + "line: {\"type\": \"send\", \"payload\": \"INV-1\", \"priority\": 5, \"due\": "
          + "\"+10m\", \"retries\": 3, \"key\": \"inv-1\"}, type and payload required (a payload "
          + "that is not a text reaches the handler as maps, lists, numbers).",
      "Every line is checked first and all are created in one transaction: a bad line is "
          + "reported with its number, and then no job at all is created."
    })
final class JobsCreateCommand implements Callable<Integer> {

  /** Bad lines shown; the rest are counted. */
  private static final int SHOWN = 20;

  @Mixin ConfiguredJobStore store;

  @Option(
      names = "--type",
      paramLabel = "TYPE",
      description = "The job type (required without --file).")
  String type;

  @Option(
      names = "--payload",
      paramLabel = "TEXT",
      description = "The payload, a text (required without --file).")
  String payload;

  @Option(
      names = "--priority",
      paramLabel = "P",
      description = "From 0 to 100, higher first (default " + NewJob.MIN_PRIORITY + ").")
  Integer priority;

  @Option(
      names = "--due",
      paramLabel = "WHEN",
      converter = DueConverter.class,
      description =
          "An ISO-8601 instant (2030-01-31T08:00:00Z) or +duration (+30s, +2h); now by default.")
  Due due;

  @Option(
      names = "--retries",
      paramLabel = "N",
      description =
          "Retries of a failed run before it is an incident (default "
              + NewJob.DEFAULT_MAX_RETRIES
              + ").")
  Integer retries;

  @Option(
      names = "--key",
      paramLabel = "KEY",
      description = "A unique key: while a job with it is unfinished, no other is created.")
  String key;

  @Option(
      names = "--exclusive-key",
      paramLabel = "KEY",
      description =
          "Jobs with the same exclusive key never run at the same time anywhere, and run in due"
              + " order (the entity they work on: an order id, a customer).")
  String exclusiveKey;

  @Option(
      names = {"-f", "--file"},
      paramLabel = "FILE",
      description = "Creates the jobs of this JSON-lines file instead, - for standard input.")
  String file;

  @Spec CommandSpec spec;

  /** When the job is due: at an instant, or a duration after now on the store's clock. */
  record Due(Instant at, Duration in) {}

  /** Reads {@code --due}. */
  static final class DueConverter implements ITypeConverter<Due> {
    @Override
    public Due convert(String value) {
      if (value.startsWith("+")) {
        Duration in = Durations.parse(value.substring(1));
        if (in == null) {
          throw new TypeConversionException("'" + value + "' after its '+' " + Durations.RULE);
        }
        return new Due(null, in);
      }
      try {
        return new Due(Instant.parse(value), null);
      } catch (DateTimeParseException e) {
        throw new TypeConversionException(
            "'"
                + value
                + "' is neither an ISO-8601 instant (2030-01-31T08:00:00Z) nor +duration (+30s)");
      }
    }
  }

  @Override
  public Integer call() {
    if (file != null) {
      return createFromFile();
    }
    if (type == null || payload == null) {
      throw new ParameterException(
          spec.commandLine(), "--type and --payload are required, or --file with one job a line");
    }
    NewJob job;
    try {
      job =
          NewJob.of(type, payload)
              .withPriority(priority == null ? NewJob.MIN_PRIORITY : priority)
              .withMaxRetries(retries == null ? NewJob.DEFAULT_MAX_RETRIES : retries)
              .withUniqueKey(key)
              .withExclusiveKey(exclusiveKey);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    return store.use(
        jobs -> {
          NewJob dated =
              due == null
                  ? job
                  : job.withDueAt(
                      due.at() != null ? due.at() : jobs.clock().instant().plus(due.in()));
          long id = jobs.create(dated);
          String detail = jobs.find(id).map(JobText::detail).orElse("finished already");
          spec.commandLine()
              .getOut()
              .printf(
                  key == null ? "created job %d (%s): %s%n" : "job %d (%s) holds key '%s': %s%n",
                  key == null
                      ? new Object[] {id, type, detail}
                      : new Object[] {id, type, key, detail});
          return ExitCodes.OK;
        });
  }

  /**
   * Reads every line before the store is opened; creates nothing when one is bad, else all in one
   * commit.
   */
  private int createFromFile() {
    if (type != null
        || payload != null
        || priority != null
        || due != null
        || retries != null
        || key != null) {
      throw new ParameterException(
          spec.commandLine(),
          "--file takes each job's fields from its line: leave out --type, --payload, --priority,"
              + " --due, --retries and --key");
    }
    boolean stdin = file.equals("-");
    String name = stdin ? "stdin" : file;
    JobLines.Read read;
    try (BufferedReader reader =
        stdin
            ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
            : Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
      read = JobLines.read(name, reader);
    } catch (NoSuchFileException e) {
      throw new ParameterException(
          spec.commandLine(),
          "--file " + file + ": no such file (resolved to " + Path.of(file).toAbsolutePath() + ")");
    } catch (IOException e) {
      throw new ParameterException(spec.commandLine(), "--file " + file + ": " + e.getMessage());
    }
    PrintWriter err = spec.commandLine().getErr();
    if (!read.problems().isEmpty()) {
      err.printf("%s has %d bad line(s); no job was created:%n", name, read.problems().size());
      read.problems().stream().limit(SHOWN).forEach(p -> err.println("  " + p));
      if (read.problems().size() > SHOWN) {
        err.printf("  ... and %d more%n", read.problems().size() - SHOWN);
      }
      return ExitCodes.INVALID;
    }
    if (read.lines().isEmpty()) {
      spec.commandLine().getOut().printf("no job in %s; nothing created%n", name);
      return ExitCodes.OK;
    }
    return store.use(
        jobs -> {
          Instant now = jobs.clock().instant();
          List<NewJob> dated = new ArrayList<>(read.lines().size());
          for (JobLines.Line line : read.lines()) {
            Due when = line.due();
            dated.add(
                when == null
                    ? line.job()
                    : line.job().withDueAt(when.at() != null ? when.at() : now.plus(when.in())));
          }
          List<Long> ids = jobs.createAll(dated);
          long first = ids.stream().mapToLong(Long::longValue).min().orElseThrow();
          long last = ids.stream().mapToLong(Long::longValue).max().orElseThrow();
          boolean keyed = dated.stream().anyMatch(j -> j.uniqueKey() != null);
          // A line whose key an unfinished job holds gives that job's id and creates none.
          spec.commandLine()
              .getOut()
              .printf(
                  keyed
                      ? "created or found by key %d job(s) for %d line(s) of %s in one"
                          + " transaction: ids %d to %d%n"
                      : "created %1$d job(s) from %3$s in one transaction: ids %4$d to %5$d%n",
                  new HashSet<>(ids).size(),
                  ids.size(),
                  name,
                  first,
                  last);
          return ExitCodes.OK;
        });
  }
}
