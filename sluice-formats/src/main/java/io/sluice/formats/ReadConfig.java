package io.sluice.formats;

import io.sluice.core.ConfigProblems;
import io.sluice.core.spi.ProcessingType;

/**
 * What a {@link ReadProcessor} reads and how.
 *
 * @param format the format; null to take it from each message's content type (the {@code
 *     content-type} of its {@code headers} attribute, as HTTP gives them, or a {@code mimeType}
 *     attribute) or its {@code fileName} attribute's extension
 * @param target the variable that receives the value; null for the payload
 * @param streaming whether the value is a {@link StreamedValues} iterating a top-level JSON array's
 *     elements or CSV rows while the input is read, instead of the whole document
 * @param header for CSV: whether the first row names the columns (each row a map keyed by them) or
 *     is data (each row a list)
 * @param separator for CSV: the character between values
 * @param quote for CSV: the character that quotes values
 * @param maxDepth the deepest nesting of objects, arrays or elements a document may have
 * @param maxSize the largest document in bytes (characters for a text payload) read whole; a
 *     streaming read bounds each value's texts by it instead
 * @param processingType what the reader spends its time on; null to let it decide ({@link
 *     #DEFAULT_PROCESSING_TYPE}, or {@code BLOCKING_IO} when streaming)
 */
public record ReadConfig(
    Format format,
    String target,
    boolean streaming,
    boolean header,
    char separator,
    char quote,
    int maxDepth,
    long maxSize,
    ProcessingType processingType) {

  /** How deep a document may nest unless {@code maxDepth} says: 500 levels. */
  public static final int DEFAULT_MAX_DEPTH = 500;

  /** The deepest nesting {@code maxDepth} allows: 5,000 levels (deeper risks the stack). */
  public static final int MAX_DEPTH = 5_000;

  /** The largest document read whole unless {@code maxSize} says: 64 MiB. */
  public static final long DEFAULT_MAX_SIZE = 64L * 1024 * 1024;

  /** The largest {@code maxSize}: 1 GiB (a whole document is held in memory). */
  public static final long MAX_SIZE = 1024L * 1024 * 1024;

  /**
   * Where the auto strategy runs a read that is not streaming. Measured in {@code FormatsBenchmark}
   * (docs/benchmarks.md): handing a small message to the CPU pool costs more than parsing it, so it
   * is parsed in place.
   */
  public static final ProcessingType DEFAULT_PROCESSING_TYPE = ProcessingType.CPU_LITE;

  /** Checks every rule and lists every violation at once. */
  public ReadConfig {
    ConfigProblems problems = new ConfigProblems();
    problems.check(
        target == null || !target.isBlank(), "target", target, "must be a variable name");
    problems.check(
        !streaming || format == null || format == Format.JSON || format == Format.CSV,
        "streaming",
        streaming,
        "is for JSON (a top-level array) and CSV; " + format + " is read whole");
    problems.check(
        separator != quote && separator != '\n' && separator != '\r',
        "separator",
        separator,
        "must be one character other than the quote and line breaks");
    problems.check(quote != '\n' && quote != '\r', "quote", quote, "must not be a line break");
    problems.check(
        maxDepth >= 1 && maxDepth <= MAX_DEPTH,
        "maxDepth",
        maxDepth,
        "must be from 1 to " + MAX_DEPTH);
    problems.check(maxSize >= 1, "maxSize", maxSize, "must be at least 1 byte");
    problems.atMost("maxSize", maxSize, MAX_SIZE);
    problems.throwIfAny();
  }

  /** A builder with the defaults: the format from each message, the payload as target. */
  public static Builder builder() {
    return new Builder();
  }

  /** The processing type the reader declares: the one set, else decided by streaming. */
  public ProcessingType effectiveProcessingType() {
    if (processingType != null) {
      return processingType;
    }
    return streaming ? ProcessingType.BLOCKING_IO : DEFAULT_PROCESSING_TYPE;
  }

  /** Builds a {@link ReadConfig}; {@link #build()} checks every rule at once. */
  public static final class Builder {
    private Format format;
    private String mimeType;
    private String target;
    private boolean streaming;
    private boolean header = true;
    private char separator = ',';
    private char quote = '"';
    private int maxDepth = DEFAULT_MAX_DEPTH;
    private long maxSize = DEFAULT_MAX_SIZE;
    private ProcessingType processingType;

    private Builder() {}

    /** The format; none (the default) takes it from each message. */
    public Builder format(Format value) {
      this.format = value;
      return this;
    }

    /** The format as a MIME type ({@code application/json}); one naming no format is refused. */
    public Builder mimeType(String value) {
      this.mimeType = value;
      return this;
    }

    /** The variable that receives the value instead of the payload. */
    public Builder target(String value) {
      this.target = value;
      return this;
    }

    /** Whether to iterate a JSON array's elements or CSV rows lazily; false by default. */
    public Builder streaming(boolean value) {
      this.streaming = value;
      return this;
    }

    /** For CSV, whether the first row names the columns; true by default. */
    public Builder header(boolean value) {
      this.header = value;
      return this;
    }

    /** For CSV, the separator; {@code ,} by default. */
    public Builder separator(char value) {
      this.separator = value;
      return this;
    }

    /** For CSV, the quote; {@code "} by default. */
    public Builder quote(char value) {
      this.quote = value;
      return this;
    }

    /** The deepest nesting allowed; {@link #DEFAULT_MAX_DEPTH} by default. */
    public Builder maxDepth(int value) {
      this.maxDepth = value;
      return this;
    }

    /** The largest document in bytes; {@link #DEFAULT_MAX_SIZE} by default. */
    public Builder maxSize(long value) {
      this.maxSize = value;
      return this;
    }

    /** The processing type; by default decided by {@code streaming}. */
    public Builder processingType(ProcessingType value) {
      this.processingType = value;
      return this;
    }

    /** The configuration; a {@link io.sluice.core.ConfigurationException} lists what is wrong. */
    public ReadConfig build() {
      Format chosen = format;
      if (mimeType != null) {
        ConfigProblems problems = new ConfigProblems();
        Format named = Format.forMimeType(mimeType).orElse(null);
        problems.check(named != null, "mimeType", mimeType, "must name JSON, XML, CSV or YAML");
        problems.check(
            format == null || named == null || format == named,
            "mimeType",
            mimeType,
            "names " + named + " but format is " + format);
        problems.throwIfAny();
        chosen = named;
      }
      return new ReadConfig(
          chosen, target, streaming, header, separator, quote, maxDepth, maxSize, processingType);
    }
  }
}
