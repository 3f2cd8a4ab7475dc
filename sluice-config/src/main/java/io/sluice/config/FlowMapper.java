package io.sluice.config;

import io.sluice.core.Flow;
import io.sluice.core.OnError;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.file.AfterRead;
import io.sluice.core.file.FileSource;
import io.sluice.core.file.FileSourceConfig;
import io.sluice.core.scheduler.SchedulerSource;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Source;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.vm.VmListenerSource;
import io.sluice.core.vm.VmPersistence;
import io.sluice.http.HttpListenerSource;
import io.sluice.http.HttpServerConfig;
import io.sluice.http.TlsConfig;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Maps one entry of {@code flows}: its strategy, source, processors, sinks and error handler. */
final class FlowMapper {

  /** The longest fixed frequency or start delay: a year (a cron expression says more). */
  static final Duration LONGEST_SCHEDULE = Duration.ofDays(365);

  private final ProcessorMapper processorMapper;
  private final StrategyMapper strategyMapper;
  private final ProblemCollector problems;
  private final SharedListeners listeners;

  FlowMapper(
      ProcessorMapper processorMapper, StrategyMapper strategyMapper, ProblemCollector problems) {
    this.processorMapper = processorMapper;
    this.strategyMapper = strategyMapper;
    this.problems = problems;
    this.listeners = new SharedListeners(problems);
  }

  /** The flow, or null when it is broken (its problems recorded). */
  Flow flow(ConfigNode node) {
    String name = node.text("name", null);
    ProcessingStrategy strategy = strategyMapper.strategy(node.get("strategy"));
    Source source = source(node.get("source"));
    List<Processor> processors = processorMapper.processors(node, "processors");
    List<Processor> sinks = processorMapper.processors(node, "sinks");
    List<OnError> errorHandler = processorMapper.errorHandler(node);
    if (strategy == null) {
      return null;
    }
    return problems.attempt(
        node.path(), () -> new Flow(name, source, processors, sinks, errorHandler, strategy));
  }

  /** The source {@code node} declares (one key naming its kind), or null when broken or absent. */
  Source source(ConfigNode node) {
    if (!node.isPresent()) {
      return null;
    }
    Map.Entry<String, ConfigNode> kind = node.single();
    if (kind == null) {
      return null;
    }
    ConfigNode s = kind.getValue();
    return switch (kind.getKey()) {
      case "file" -> fileSource(s);
      case "scheduler" -> scheduler(s);
      case "vm-listener" -> {
        String queue = s.text("queue", null);
        int consumers = s.integer("consumers", 1);
        if (queue == null) {
          problems.add(s.get("queue").path(), null, "is required");
          yield null;
        }
        VmPersistence persistence = s.bool("persistent", false) ? persistence(s) : null;
        yield problems.attempt(
            s.get("consumers").path(), () -> new VmListenerSource(queue, consumers, persistence));
      }
      case "http-listener" -> httpListener(s);
      default -> {
        problems.add(
            s.path(),
            kind.getKey(),
            "is not a source; use file, scheduler, vm-listener or http-listener");
        yield null;
      }
    };
  }

  private Source httpListener(ConfigNode s) {
    HttpServerConfig d = HttpServerConfig.builder(0).build();
    long maxInitialLineLength = s.size("maxInitialLineLength", d.maxInitialLineLength());
    long maxHeaderSize = s.size("maxHeaderSize", d.maxHeaderSize());
    HttpServerConfig.Builder server =
        HttpServerConfig.builder(s.integer("port", 0))
            .host(s.text("host", d.host()))
            .maxBodySize(s.size("maxBodySize", d.maxBodySize()))
            .maxHeaderSize((int) Math.min(Integer.MAX_VALUE, maxHeaderSize))
            .maxInitialLineLength((int) Math.min(Integer.MAX_VALUE, maxInitialLineLength))
            .requestTimeout(s.duration("requestTimeout", d.requestTimeout()))
            .idleTimeout(s.duration("idleTimeout", d.idleTimeout()))
            .maxConnections(s.integer("maxConnections", d.maxConnections()))
            .keepAlive(s.bool("keepAlive", d.keepAlive()))
            .backlog(s.integer("backlog", d.backlog()))
            .retryAfter(s.duration("retryAfter", d.retryAfter()))
            .shutdownTimeout(s.duration("shutdownTimeout", d.shutdownTimeout()));
    TlsConfig tls = processorMapper.tls.map(s, true);
    HttpServerConfig built =
        processorMapper.tls.broken(s, tls)
            ? null
            : problems.attempt(s.path(), server.tls(tls)::build);
    if (built != null) {
      listeners.add(s.path(), built);
    }
    String path = s.text("path", "/");
    Set<String> methods = new LinkedHashSet<>(s.texts("methods"));
    boolean streaming = s.bool("streaming", false);
    // The path is checked even when the server settings are broken: every problem at once.
    Source listener =
        problems.attempt(
            s.path(),
            () -> new HttpListenerSource(built == null ? d : built, path, methods, streaming));
    return built == null ? null : listener;
  }

  /** The persistent queue settings of a vm-listener; null (and a problem) when one is broken. */
  private VmPersistence persistence(ConfigNode s) {
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

  private Source fileSource(ConfigNode s) {
    Path directory = processorMapper.path(s, "directory");
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
      config.moveTo(processorMapper.path(s, "moveTo"));
    }
    FileSourceConfig built = problems.attempt(s.path(), config::build);
    return built == null ? null : new FileSource(built);
  }

  private Source scheduler(ConfigNode s) {
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
    ZoneId zone = zone(s);
    // The scheduler validates its own cron; with a bad zone (already reported) it still checks
    // the expression, against UTC, so both problems are reported at once.
    Source source =
        problems.attempt(
            "", () -> SchedulerSource.cron(cronPath, cron, zone == null ? ZoneOffset.UTC : zone));
    return zone == null ? null : source;
  }

  private ZoneId zone(ConfigNode s) {
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
