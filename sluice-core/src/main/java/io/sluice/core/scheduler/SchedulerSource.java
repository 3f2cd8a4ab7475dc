package io.sluice.core.scheduler;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import io.micrometer.core.instrument.Counter;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigProblems;
import io.sluice.core.ConfigurationException;
import io.sluice.core.FlowBusyException;
import io.sluice.core.Message;
import io.sluice.core.logging.RepeatedFailureLog;
import io.sluice.core.spi.Source;
import io.sluice.core.spi.SourceContext;
import io.sluice.core.spi.TimerService;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A source that fires messages on a schedule: at a fixed frequency, or on a Quartz-style cron
 * expression (seconds first, {@code 0 *}{@code /5 * * * ?}) in a time zone. Each firing hands the
 * flow a message with a null payload and the attributes {@code scheduledTime} (the {@link Instant}
 * it was due) and {@code firedAt} (the clock's {@link Instant} when it ran).
 *
 * <p>It uses only the flow's timer and clock, so tests drive it by hand with the test kit's manual
 * ones. A fixed frequency keeps to its grid: each firing is due one period after the previous one
 * was <em>due</em>, not after it ran, so lateness does not add up. Slots missed entirely (the clock
 * jumped, or the timer was late by more than a period) are skipped, not run in a burst. Cron times
 * are computed in the zone, so they follow its daylight-saving changes.
 *
 * <p>A firing that finds the previous one still in the flow is skipped (never queued behind it).
 * Skipped firings, firings the flow refused because it was full, and a fixed frequency's missed
 * slots are counted in {@code sluice.scheduler.skipped}, tagged {@code flow}.
 */
public final class SchedulerSource implements Source {

  private static final Logger LOG = LoggerFactory.getLogger(SchedulerSource.class);
  private static final CronParser QUARTZ =
      new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.QUARTZ));

  /** When a schedule fires next. */
  private sealed interface Schedule {
    /** The first firing at or after {@code now}. */
    Instant first(Instant now);

    /** The firing after the one due at {@code previous}, strictly after it and not before now. */
    Instant after(Instant previous, Instant now);
  }

  private record Fixed(Duration frequency, Duration startDelay) implements Schedule {
    @Override
    public Instant first(Instant now) {
      return now.plus(startDelay);
    }

    @Override
    public Instant after(Instant previous, Instant now) {
      Instant next = previous.plus(frequency);
      if (next.isBefore(now)) {
        long behind = Duration.between(next, now).toNanos();
        long periods = (behind + frequency.toNanos() - 1) / frequency.toNanos();
        next = next.plus(frequency.multipliedBy(periods));
      }
      return next;
    }

    @Override
    public String toString() {
      return "every " + frequency + ", first after " + startDelay;
    }
  }

  private record CronSchedule(String expression, ExecutionTime times, ZoneId zone)
      implements Schedule {
    @Override
    public Instant first(Instant now) {
      return next(now.minusNanos(1));
    }

    @Override
    public Instant after(Instant previous, Instant now) {
      // From the later of the two: a timer that ran early must not fire the same slot twice, a
      // timer that ran late must not fire the missed slots in a burst.
      Instant justBeforeNow = now.minusNanos(1);
      return next(justBeforeNow.isAfter(previous) ? justBeforeNow : previous);
    }

    private Instant next(Instant after) {
      return times
          .nextExecution(ZonedDateTime.ofInstant(after, zone))
          .map(ZonedDateTime::toInstant)
          .orElse(null);
    }

    @Override
    public String toString() {
      return "cron '" + expression + "' in " + zone;
    }
  }

  private final Schedule schedule;
  private final Object lock = new Object();
  private final AtomicBoolean busy = new AtomicBoolean();
  private SourceContext context;
  private Counter skipped;
  private RepeatedFailureLog failures;
  private boolean running;
  private TimerService.Cancellable next;

  private SchedulerSource(Schedule schedule) {
    this.schedule = schedule;
  }

  /**
   * A scheduler that fires every {@code frequency}, the first time {@code startDelay} after the
   * flow starts.
   *
   * @throws ConfigurationException when the frequency is not positive or the delay is negative
   */
  public static SchedulerSource fixedFrequency(Duration frequency, Duration startDelay) {
    ConfigProblems problems = new ConfigProblems();
    problems.check(
        frequency != null && frequency.isPositive(),
        "frequency",
        frequency,
        "must be a positive duration");
    problems.check(
        startDelay != null && !startDelay.isNegative(),
        "startDelay",
        startDelay,
        "must be zero or a positive duration");
    problems.throwIfAny();
    return new SchedulerSource(new Fixed(frequency, startDelay));
  }

  /**
   * A scheduler that fires on a Quartz-style cron expression (seconds first) in {@code zone}.
   *
   * @param path where the expression was configured, for the error message
   * @throws ConfigurationException naming {@code path} and the expression when it is not valid
   */
  public static SchedulerSource cron(String path, String expression, ZoneId zone) {
    if (zone == null) {
      throw new ConfigurationException(ConfigProblem.of(path, null, "needs a time zone"));
    }
    Cron cron;
    try {
      cron = QUARTZ.parse(expression).validate();
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new ConfigurationException(
          ConfigProblem.of(
              path,
              expression,
              "is not a valid cron expression: "
                  + e.getMessage()
                  + " (Quartz syntax, seconds first: '0 */5 * * * ?' is every five minutes)"));
    }
    return new SchedulerSource(new CronSchedule(expression, ExecutionTime.forCron(cron), zone));
  }

  /** Schedules the first firing on the flow's timer; does not block. */
  @Override
  public void start(SourceContext flowContext) {
    this.context = flowContext;
    this.failures =
        new RepeatedFailureLog(
            LOG,
            "Flow '" + flowContext.flowName() + "' failing on its firings",
            flowContext.clock());
    this.skipped =
        Counter.builder("sluice.scheduler.skipped")
            .tag("flow", flowContext.flowName())
            .description(
                "Firings skipped because the previous one was still in the flow, or missed")
            .register(flowContext.meterRegistry());
    Instant first = schedule.first(flowContext.clock().instant());
    LOG.info(
        "Scheduler of flow '{}' fires {}; first at {}", flowContext.flowName(), schedule, first);
    synchronized (lock) {
      running = true;
      scheduleAt(first);
    }
  }

  /** Cancels the next firing; one already in the flow finishes under the flow's control. */
  @Override
  public void stop() {
    synchronized (lock) {
      running = false;
      if (next != null) {
        next.cancel();
        next = null;
      }
    }
  }

  @Override
  public String name() {
    return "scheduler(" + schedule + ")";
  }

  /** Must hold {@code lock}. */
  private void scheduleAt(Instant due) {
    if (due == null) {
      LOG.info("Scheduler of flow '{}' ({}) has no firing left", context.flowName(), schedule);
      next = null;
      return;
    }
    Duration delay = Duration.between(context.clock().instant(), due);
    next = context.timer().schedule(delay.isNegative() ? Duration.ZERO : delay, () -> fire(due));
  }

  private void fire(Instant scheduledTime) {
    Instant firedAt = context.clock().instant();
    synchronized (lock) {
      if (!running) {
        return;
      }
      // Scheduled before the flow runs, so a flow that blocks cannot delay the next firing.
      Instant following = schedule.after(scheduledTime, firedAt);
      if (following != null && schedule instanceof Fixed fixed) {
        long missed = Duration.between(scheduledTime, following).dividedBy(fixed.frequency()) - 1;
        if (missed > 0) {
          skipped.increment(missed);
          LOG.warn(
              "Scheduler of flow '{}' missed {} firing(s) after {}; next at {}",
              context.flowName(),
              missed,
              scheduledTime,
              following);
        }
      }
      scheduleAt(following);
    }
    if (!busy.compareAndSet(false, true)) {
      skipped.increment();
      LOG.debug(
          "Scheduler of flow '{}' skipped the firing due at {}: the previous one is still "
              + "in the flow",
          context.flowName(),
          scheduledTime);
      return;
    }
    Message message = Message.of(null, Map.of("scheduledTime", scheduledTime, "firedAt", firedAt));
    CompletableFuture<Message> result;
    try {
      result = context.submit(message);
    } catch (RuntimeException e) {
      result = CompletableFuture.failedFuture(e);
    }
    result.whenComplete(
        (done, error) -> {
          busy.set(false);
          if (error != null) {
            report(scheduledTime, error);
          } else {
            failures.recovered();
          }
        });
  }

  private void report(Instant scheduledTime, Throwable error) {
    Throwable cause =
        error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (cause instanceof FlowBusyException) {
      skipped.increment();
      LOG.debug(
          "Flow '{}' refused the firing due at {}: {}",
          context.flowName(),
          scheduledTime,
          cause.getMessage());
    } else {
      failures.failed(
          "Flow '{}' failed on the firing due at {}: {}",
          context.flowName(),
          scheduledTime,
          cause.toString());
    }
  }
}
