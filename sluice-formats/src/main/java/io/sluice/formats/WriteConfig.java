package io.sluice.formats;

import io.sluice.core.ConfigProblems;
import io.sluice.core.expression.Template;
import io.sluice.core.spi.ProcessingType;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link WriteProcessor} writes and how.
 *
 * @param format the format written
 * @param value what is written; null for the payload
 * @param target the variable that receives the text; null for the payload
 * @param output whether the result is text or UTF-8 bytes
 * @param pretty whether JSON, XML and YAML are indented over several lines
 * @param header for CSV: whether a first row names the columns
 * @param columns for CSV: the columns written, in order; empty for the keys of the first row
 * @param separator for CSV: the character between values
 * @param quote for CSV: the character that quotes values
 * @param rootElement for XML: the name of the root element
 * @param processingType what the writer spends its time on
 */
public record WriteConfig(
    Format format,
    Template value,
    String target,
    Output output,
    boolean pretty,
    boolean header,
    List<String> columns,
    char separator,
    char quote,
    String rootElement,
    ProcessingType processingType) {

  /** The root element's name unless {@code rootElement} says. */
  public static final String DEFAULT_ROOT_ELEMENT = "root";

  /** Where the auto strategy runs a write unless {@code processingType} says (as a read). */
  public static final ProcessingType DEFAULT_PROCESSING_TYPE = ReadConfig.DEFAULT_PROCESSING_TYPE;

  /** What a write produces. */
  public enum Output {
    /** A String. */
    TEXT,
    /** The text's UTF-8 bytes. */
    BYTES
  }

  /** Checks every rule and lists every violation at once; copies the columns. */
  public WriteConfig {
    ConfigProblems problems = new ConfigProblems();
    problems.check(format != null, "format", null, "is required");
    problems.check(
        target == null || !target.isBlank(), "target", target, "must be a variable name");
    problems.check(output != null, "output", null, "is required");
    problems.check(columns != null, "columns", null, "must be a list, empty for the first row's");
    if (columns != null) {
      problems.check(
          columns.stream().allMatch(c -> c != null && !c.isEmpty()),
          "columns",
          columns,
          "must be names that are not empty");
      problems.check(
          new HashSet<>(columns).size() == columns.size(),
          "columns",
          columns,
          "must not name a column twice");
    }
    problems.check(
        separator != quote && separator != '\n' && separator != '\r',
        "separator",
        separator,
        "must be one character other than the quote and line breaks");
    problems.check(quote != '\n' && quote != '\r', "quote", quote, "must not be a line break");
    problems.check(
        rootElement != null && rootElement.matches("[A-Za-z_][A-Za-z0-9_.-]*"),
        "rootElement",
        rootElement,
        "must be an XML name (a letter or _, then letters, digits, _, . or -)");
    problems.check(processingType != null, "processingType", null, "is required");
    problems.throwIfAny();
    columns = List.copyOf(columns);
  }

  /** A builder writing {@code format} with the defaults: the payload, as text, to the payload. */
  public static Builder builder(Format format) {
    return new Builder(format);
  }

  /** Builds a {@link WriteConfig}; {@link #build()} checks every rule at once. */
  public static final class Builder {
    private final Format format;
    private Template value;
    private String target;
    private Output output = Output.TEXT;
    private boolean pretty;
    private boolean header = true;
    private List<String> columns = List.of();
    private char separator = ',';
    private char quote = '"';
    private String rootElement = DEFAULT_ROOT_ELEMENT;
    private ProcessingType processingType = DEFAULT_PROCESSING_TYPE;

    private Builder(Format format) {
      this.format = format;
    }

    /** What is written instead of the payload ({@code #[vars.order]}). */
    public Builder value(Template template) {
      this.value = template;
      return this;
    }

    /** The variable that receives the result instead of the payload. */
    public Builder target(String variable) {
      this.target = variable;
      return this;
    }

    /** Text (the default) or bytes. */
    public Builder output(Output kind) {
      this.output = Objects.requireNonNull(kind, "output");
      return this;
    }

    /** Whether to indent; false by default. */
    public Builder pretty(boolean on) {
      this.pretty = on;
      return this;
    }

    /** For CSV, whether to write a header row; true by default. */
    public Builder header(boolean on) {
      this.header = on;
      return this;
    }

    /** For CSV, the columns in order; by default the keys of the first row. */
    public Builder columns(List<String> names) {
      this.columns = names;
      return this;
    }

    /** For CSV, the separator; {@code ,} by default. */
    public Builder separator(char c) {
      this.separator = c;
      return this;
    }

    /** For CSV, the quote; {@code "} by default. */
    public Builder quote(char c) {
      this.quote = c;
      return this;
    }

    /** For XML, the root element's name; {@value #DEFAULT_ROOT_ELEMENT} by default. */
    public Builder rootElement(String name) {
      this.rootElement = name;
      return this;
    }

    /** The processing type; {@link #DEFAULT_PROCESSING_TYPE} by default. */
    public Builder processingType(ProcessingType type) {
      this.processingType = type;
      return this;
    }

    /** The configuration; a {@link io.sluice.core.ConfigurationException} lists what is wrong. */
    public WriteConfig build() {
      return new WriteConfig(
          format,
          value,
          target,
          output,
          pretty,
          header,
          columns,
          separator,
          quote,
          rootElement,
          processingType);
    }
  }
}
