package io.sluice.config.builtin;

import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProblemCollector;
import io.sluice.core.file.AfterRead;
import io.sluice.core.file.FileSource;
import io.sluice.core.file.FileSourceConfig;
import io.sluice.core.scheduler.SchedulerSource;
import io.sluice.core.spi.Source;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.vm.VmListenerSource;
import io.sluice.core.vm.VmPersistence;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** Maps the core's sources: file, scheduler and vm-listener. */
final class CoreSources {

  /** The longest fixed frequency or start delay: a year (a cron expression says more). */
  static final Duration LONGEST_SCHEDULE = Duration.ofDays(365);

  private CoreSources() {}

  static Source vmListener(ConfigNode s, MappingContext context) {
    ProblemCollector problems = context.problems();
    String queue = s.text("queue", null);
    int consumers = s.integer("consumers", 1);
    if (queue == null) {
      problems.add(s.get("queue").path(), null, "is required");
      return null;
    }
    VmPersistence persistence = s.bool("persistent", false) ? persistence(s, problems) : null;
    return problems.attempt(
        s.get("consumers").path(), () -> new VmListenerSource(queue, consumers, persistence));
  }

  /** The persistent queue settings of a vm-listener; null (and a problem) when one is broken. */
  private static VmPersistence persistence(ConfigNode s, ProblemCollector problems) {
    VmPersistence d = VmPersistence.DEFAULTS;
    Duration lockTimeout = s.duration("lockTimeout", d.queue().lockTimeout());
    int maxDeliveries = s.integer("maxDeliveries", d.queue().maxDeliveries());
    Duration redeliveryDelay = s.duration("redeliveryDelay", d.redeliveryDelay());
    QueueOptions queue =
        problems.attempt(s.path(), () -> new QueueOptions(lockTimeout, maxDeliveries, null, null));
    return queue == null
        ? null
        : problems.attempt(
            s.path(), () -> new VmPersistence(queue, redeliveryDelay, d.maxOutstanding()));
  }

  static Source file(ConfigNode s, MappingContext context) {
    Path directory = context.path(s, "directory");
    if (directory == null) {
      return null;
    }
    FileSourceConfig d = FileSourceConfig.builder(directory).build();
    FileSourceConfig.Builder config =
        FileSourceConfig.builder(directory)
            .pattern(s.text("pattern", d.pattern()))
            .pollingFrequency(s.duration("pollingFrequency", d.pollingFrequency()))
            .minAge(s.duration("minAge", d.minAge()))
            .afterRead(s.enumValue("afterRead", AfterRead.class, d.afterRead()))
            .maxConcurrentFiles(s.integer("maxConcurrentFiles", d.maxConcurrentFiles()))
            .streaming(s.bool("streaming", d.streaming()));
    if (s.has("moveTo")) {
      config.moveTo(context.path(s, "moveTo"));
    }
    FileSourceConfig built = context.problems().attempt(s.path(), config::build);
    return built == null ? null : context.parsedFirst(new FileSource(built), s);
  }

  static Source scheduler(ConfigNode s, MappingContext context) {
    ProblemCollector problems = context.problems();
    boolean fixed = s.has("frequency");
    if (fixed == s.has("cron")) {
      problems.add(s.path(), null, "must hold exactly one of: frequency, cron");
      return null;
    }
    if (fixed) {
      Duration frequency = s.duration("frequency", null, LONGEST_SCHEDULE);
      Duration startDelay = s.duration("startDelay", Duration.ZERO, LONGEST_SCHEDULE);
      return frequency == null
          ? null
          : problems.attempt(s.path(), () -> SchedulerSource.fixedFrequency(frequency, startDelay));
    }
    String cronPath = s.get("cron").path();
    String cron = s.text("cron", null);
    ZoneId zone = zone(s, problems);
    // The scheduler validates its own cron; with a bad zone (already reported) it still checks
    // the expression, against UTC, so both problems are reported at once.
    Source source =
        problems.attempt(
            "", () -> SchedulerSource.cron(cronPath, cron, zone == null ? ZoneOffset.UTC : zone));
    return zone == null ? null : source;
  }

  private static ZoneId zone(ConfigNode s, ProblemCollector problems) {
    String text = s.text("timeZone", null);
    if (text == null) {
      return ZoneId.systemDefault();
    }
    try {
      return ZoneId.of(text);
    } catch (DateTimeException e) {
      problems.add(
          s.get("timeZone").path(),
          text,
          "is not a known time zone; use a region such as Europe/Paris, or UTC");
      return null;
    }
  }
}
