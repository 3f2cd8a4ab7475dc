package io.sluice.formats.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.sluice.formats.Format;
import io.sluice.formats.FormatException;
import java.util.regex.Pattern;
import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamException;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/** Turns what a parser threw into a {@link FormatException} naming the line and column. */
final class ParseErrors {

  private ParseErrors() {}

  /** The error {@code failure} of a parser (null when none was made yet) stands for. */
  static FormatException of(Format format, Throwable failure, JsonParser parser) {
    if (failure instanceof FormatException already) {
      return already;
    }
    String reason = reason(failure);
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof XMLStreamException xml && xml.getLocation() != null) {
        Location at = xml.getLocation();
        return FormatException.parse(
            format, reason(xml), at.getLineNumber(), at.getColumnNumber(), failure);
      }
      if (t instanceof MarkedYAMLException yaml && yaml.getProblemMark() != null) {
        Mark at = yaml.getProblemMark();
        String what =
            yaml.getContext() == null
                ? yaml.getProblem()
                : yaml.getContext() + ": " + yaml.getProblem();
        return FormatException.parse(
            format, reason(what), at.getLine() + 1L, at.getColumn() + 1L, failure);
      }
    }
    JsonLocation at =
        failure instanceof JsonProcessingException p && p.getLocation() != null
            ? p.getLocation()
            : null;
    if ((at == null || at.getLineNr() < 1) && parser != null) {
      at = parser.currentLocation();
    }
    return at == null || at.getLineNr() < 1
        ? FormatException.parse(format, reason, 0, 0, failure)
        : FormatException.parse(format, reason, at.getLineNr(), at.getColumnNr(), failure);
  }

  private static String reason(Throwable failure) {
    String text =
        failure instanceof JsonProcessingException p
            ? p.getOriginalMessage()
            : failure.getMessage();
    return text == null ? failure.getClass().getSimpleName() : reason(text);
  }

  private static final Pattern SOURCE =
      Pattern.compile("\\[Source: [^;]*; line: (\\d+), column: (\\d+)]");

  private static String reason(String message) {
    String text = message == null ? "no reason given" : message;
    // Woodstox appends its own location, and Jackson a source description: the line and column
    // are given once, by the FormatException.
    int cut = text.indexOf("\n at [");
    if (cut >= 0) {
      text = text.substring(0, cut);
    }
    if (text.startsWith("ParseError at [row,col]:")) {
      int at = text.indexOf("Message: ");
      text = at < 0 ? text : text.substring(at + "Message: ".length());
    }
    // Jackson names a start marker's place with its source, which is never shown:
    // "(start marker at [Source: REDACTED (...); line: 1, column: 1])" says "line 1, column 1".
    text = SOURCE.matcher(text).replaceAll("line $1, column $2");
    int newline = text.indexOf('\n');
    return (newline < 0 ? text : text.substring(0, newline)).trim();
  }
}
