package io.sluice.core.file;

import io.sluice.core.ConfigProblems;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.PatternSyntaxException;

/**
 * What a {@link FileSource} polls and what it does with what it read.
 *
 * @param directory the directory polled (must exist when the flow starts)
 * @param pattern a glob on file names, {@code *} for all
 * @param pollingFrequency how often the directory is listed
 * @param minAge how long a file must have gone unmodified before it is read (so half-written files
 *     are left alone)
 * @param afterRead what happens to a file its flow finished successfully
 * @param moveTo where MOVE puts files (required for MOVE, created if missing)
 * @param maxConcurrentFiles the most files handed to the flow at once
 * @param streaming whether the payload is an {@link java.io.InputStream} read from disk as the flow
 *     consumes it (any size in constant memory) rather than the file's bytes read whole
 */
public record FileSourceConfig(
    Path directory,
    String pattern,
    Duration pollingFrequency,
    Duration minAge,
    AfterRead afterRead,
    Path moveTo,
    int maxConcurrentFiles,
    boolean streaming) {

  /** The most files handed to a flow at once: ten thousand. */
  public static final int MAX_CONCURRENT_FILES = 10_000;

  /** Checks every rule and lists every violation at once. */
  public FileSourceConfig {
    ConfigProblems problems = new ConfigProblems();
    problems.check(directory != null, "directory", null, "is required");
    if (problems.check(
        pattern != null && !pattern.isBlank(),
        "pattern",
        pattern,
        "must be a non-empty glob such as *.csv")) {
      // FileSource compiles it when the flow is built; a bad one is this rule's, not a crash's.
      try {
        FileSystems.getDefault().getPathMatcher("glob:" + pattern);
      } catch (PatternSyntaxException e) {
        problems.check(
            false,
            "pattern",
            pattern,
            "is not a valid glob: "
                + e.getDescription()
                + (e.getIndex() >= 0 ? " at character " + (e.getIndex() + 1) : ""));
      }
    }
    problems.check(
        pollingFrequency != null && pollingFrequency.isPositive(),
        "pollingFrequency",
        pollingFrequency,
        "must be a positive duration");
    problems.atMost("pollingFrequency", pollingFrequency, ConfigProblems.MAX_DURATION);
    problems.check(
        minAge != null && !minAge.isNegative(),
        "minAge",
        minAge,
        "must be zero or a positive duration");
    problems.atMost("minAge", minAge, ConfigProblems.MAX_DURATION);
    problems.check(afterRead != null, "afterRead", null, "is required");
    problems.check(
        afterRead != AfterRead.MOVE || moveTo != null,
        "moveTo",
        null,
        "is required when afterRead is MOVE");
    if (problems.check(
        maxConcurrentFiles >= 1, "maxConcurrentFiles", maxConcurrentFiles, "must be at least 1")) {
      problems.atMost("maxConcurrentFiles", maxConcurrentFiles, MAX_CONCURRENT_FILES);
    }
    problems.throwIfAny();
  }

  /** A builder for polling {@code directory}; the rest defaults. */
  public static Builder builder(Path directory) {
    return new Builder(directory);
  }

  /**
   * Builds a {@link FileSourceConfig}: pattern *, every 1 s, minAge 0, DELETE, 16 at once, the file
   * read whole.
   */
  public static final class Builder {
    private final Path directory;
    private String pattern = "*";
    private Duration pollingFrequency = Duration.ofSeconds(1);
    private Duration minAge = Duration.ZERO;
    private AfterRead afterRead = AfterRead.DELETE;
    private Path moveTo;
    private int maxConcurrentFiles = 16;
    private boolean streaming;

    private Builder(Path directory) {
      this.directory = directory;
    }

    /** A glob on file names. */
    public Builder pattern(String value) {
      this.pattern = value;
      return this;
    }

    /** How often the directory is listed. */
    public Builder pollingFrequency(Duration value) {
      this.pollingFrequency = value;
      return this;
    }

    /** How long a file must be left unmodified before it is read. */
    public Builder minAge(Duration value) {
      this.minAge = value;
      return this;
    }

    /** What happens to a file after success. */
    public Builder afterRead(AfterRead value) {
      this.afterRead = value;
      return this;
    }

    /** Where MOVE puts files. */
    public Builder moveTo(Path value) {
      this.moveTo = value;
      return this;
    }

    /** The most files in the flow at once. */
    public Builder maxConcurrentFiles(int value) {
      this.maxConcurrentFiles = value;
      return this;
    }

    /**
     * Whether the flow gets an {@link java.io.InputStream} read as it consumes it instead of the
     * file's bytes.
     */
    public Builder streaming(boolean value) {
      this.streaming = value;
      return this;
    }

    /** The configuration; fails listing every broken rule. */
    public FileSourceConfig build() {
      return new FileSourceConfig(
          directory,
          pattern,
          pollingFrequency,
          minAge,
          afterRead,
          moveTo,
          maxConcurrentFiles,
          streaming);
    }
  }
}
