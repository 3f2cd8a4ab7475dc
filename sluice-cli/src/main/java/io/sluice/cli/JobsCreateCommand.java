package io.sluice.cli;

import io.sluice.config.Durations;
import io.sluice.core.store.NewJob;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** {@code sluice jobs create}: creates one job with a text payload. */
@Command(
    name = "create",
    mixinStandardHelpOptions = true,
    header = "Creates a job with a text payload.",
    description = {
      "Creates a job whose payload is the text given, written with the file's",
      "serialization, and prints its id. A flow handler gets the text as the",
      "message's payload."
    })
final class JobsCreateCommand implements Callable<Integer> {

  @Mixin ConfiguredJobStore store;

  @Option(names = "--type", required = true, paramLabel = "TYPE", description = "The job type.")
  String type;

  @Option(
      names = "--payload",
      required = true,
      paramLabel = "TEXT",
      description = "The payload, a text.")
  String payload;

  @Option(
      names = "--priority",
      paramLabel = "P",
      description = "From 0 to 100, higher first (default ${DEFAULT-VALUE}).")
  int priority = NewJob.MIN_PRIORITY;

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
      description = "Retries of a failed run before it is an incident (default ${DEFAULT-VALUE}).")
  int retries = NewJob.DEFAULT_MAX_RETRIES;

  @Option(
      names = "--key",
      paramLabel = "KEY",
      description = "A unique key: while a job with it is unfinished, no other is created.")
  String key;

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
    NewJob job;
    try {
      job =
          NewJob.of(type, payload)
              .withPriority(priority)
              .withMaxRetries(retries)
              .withUniqueKey(key);
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
}
