package io.sluice.formats;

import io.sluice.core.SluiceException;

/**
 * A document that could not be read ({@value #PARSE}: it does not parse, or it passes a limit such
 * as the depth or size allowed, or names no format), with the line and column where reading stopped
 * when they are known; or a value that could not be written ({@value #WRITE}). An error handler
 * matches them with {@code types: [PARSE]} or {@code [FORMAT:PARSE]}.
 */
public final class FormatException extends SluiceException {

  /** The error type of a document that could not be read. */
  public static final String PARSE = "FORMAT:PARSE";

  /** The error type of a value that could not be written. */
  public static final String WRITE = "FORMAT:WRITE";

  private final Format format;
  private final long line;
  private final long column;

  private FormatException(
      String errorType, Format format, String message, long line, long column, Throwable cause) {
    super(errorType, message, cause);
    this.format = format;
    this.line = line;
    this.column = column;
  }

  /**
   * A document in {@code format} (null when none was found) that could not be read for {@code
   * reason}, at {@code line} and {@code column} (from 1; 0 when unknown).
   */
  public static FormatException parse(
      Format format, String reason, long line, long column, Throwable cause) {
    String where = line > 0 ? " at line " + line + ", column " + column : "";
    String what = format == null ? "The payload" : "The " + format + " document";
    return new FormatException(
        PARSE,
        format,
        what + " could not be read" + where + ": " + reason,
        Math.max(line, 0),
        Math.max(column, 0),
        cause);
  }

  /** A value that could not be written as {@code format}, for {@code reason}. */
  public static FormatException write(Format format, String reason, Throwable cause) {
    return new FormatException(
        WRITE, format, "The value could not be written as " + format + ": " + reason, 0, 0, cause);
  }

  /** The format read or written; null when the message named none. */
  public Format format() {
    return format;
  }

  /** The line (from 1) where reading stopped; 0 when unknown or when writing. */
  public long line() {
    return line;
  }

  /** The column (from 1) where reading stopped; 0 when unknown or when writing. */
  public long column() {
    return column;
  }
}
