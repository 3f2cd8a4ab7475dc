package io.sluice.cli;

import io.sluice.jobs.spi.JobInfo;
import io.sluice.jobs.spi.JobState;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;

/** How the jobs commands write jobs: states, times, ages and errors, each in one short cell. */
final class JobText {

  private static final int ERROR_CELL = 100;

  private JobText() {}

  /** {@code waiting}, {@code running} or {@code incident}. */
  static String state(JobState state) {
    return switch (state) {
      case JobState.Waiting w -> "waiting";
      case JobState.Running r -> "running";
      case JobState.Incident i -> "incident";
    };
  }

  /** When a waiting job is due, who runs a running one, why an incident failed. */
  static String detail(JobInfo job) {
    return switch (job.state()) {
      case JobState.Waiting w ->
          "due "
              + time(w.dueAt())
              + (job.lastError() == null ? "" : "; failed: " + firstLine(job.lastError()));
      case JobState.Running r -> "on " + r.owner();
      case JobState.Incident i -> firstLine(i.error());
    };
  }

  /**
   * A job as {@code --output json} shows it: every field, its state's own ({@code dueAt} of a
   * waiting job, {@code owner} of a running one) and its whole last error.
   */
  static Map<String, Object> json(JobInfo job) {
    Map<String, Object> json = OutputOption.object();
    json.put("id", job.id());
    json.put("type", job.type());
    json.put("state", state(job.state()));
    json.put(
        "dueAt", job.state() instanceof JobState.Waiting w ? OutputOption.time(w.dueAt()) : null);
    json.put("owner", job.state() instanceof JobState.Running r ? r.owner() : null);
    json.put("priority", job.priority());
    json.put("attempts", job.attempts());
    json.put("retriesLeft", job.retriesLeft());
    json.put("uniqueKey", job.uniqueKey());
    json.put("exclusiveKey", job.exclusiveKey());
    json.put("createdAt", OutputOption.time(job.createdAt()));
    json.put("lastError", job.lastError());
    return json;
  }

  /** An instant in UTC to the second: {@code 2025-06-01T09:30:00Z}. */
  static String time(Instant instant) {
    return instant == null ? null : instant.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  /**
   * A duration in its two largest units: {@code 2h 5m}, {@code 3m 12s}, {@code 40s}, {@code 0s}.
   */
  static String age(Duration duration) {
    long seconds = Math.max(0, duration.toSeconds());
    long days = seconds / 86_400;
    long hours = seconds / 3_600 % 24;
    long minutes = seconds / 60 % 60;
    long secs = seconds % 60;
    if (days > 0) {
      return days + "d " + hours + "h";
    }
    if (hours > 0) {
      return hours + "h " + minutes + "m";
    }
    return minutes > 0 ? minutes + "m " + secs + "s" : secs + "s";
  }

  /** The first line of an error, cut to fit a cell. */
  static String firstLine(String error) {
    String line = error.lines().findFirst().orElse("").strip();
    return line.length() <= ERROR_CELL ? line : line.substring(0, ERROR_CELL - 1) + "…";
  }
}
