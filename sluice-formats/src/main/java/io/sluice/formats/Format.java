package io.sluice.formats;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** A data format Sluice reads and writes, with the MIME types and file extensions that name it. */
public enum Format {
  /** JSON (RFC 8259). */
  JSON("application/json", List.of("json")),
  /** XML: elements become map keys, repeated elements lists, attributes keys as well. */
  XML("application/xml", List.of("xml")),
  /** CSV (RFC 4180): rows of texts, keyed by the header row or as lists. */
  CSV("text/csv", List.of("csv")),
  /** YAML 1.1, as SnakeYAML reads it. */
  YAML("application/yaml", List.of("yaml", "yml"));

  private final String mimeType;
  private final List<String> extensions;

  Format(String mimeType, List<String> extensions) {
    this.mimeType = mimeType;
    this.extensions = extensions;
  }

  /** The MIME type written as the content type of what this format writes. */
  public String mimeType() {
    return mimeType;
  }

  /** The file name extensions (without the dot, lower case) of this format. */
  public List<String> extensions() {
    return extensions;
  }

  /**
   * The format a MIME type or content type names ({@code application/json}, {@code text/xml;
   * charset=UTF-8}, {@code application/vnd.api+json}, {@code text/csv}, {@code
   * application/x-yaml}), or empty when it names none of them.
   */
  public static Optional<Format> forMimeType(String contentType) {
    if (contentType == null) {
      return Optional.empty();
    }
    String type = contentType.toLowerCase(Locale.ROOT);
    int semicolon = type.indexOf(';');
    type = (semicolon < 0 ? type : type.substring(0, semicolon)).trim();
    int slash = type.indexOf('/');
    if (slash < 0) {
      return Optional.empty();
    }
    String subtype = type.substring(slash + 1);
    int plus = subtype.lastIndexOf('+');
    String suffix = plus < 0 ? subtype : subtype.substring(plus + 1);
    return switch (plus < 0 ? subtype : suffix) {
      case "json" -> Optional.of(JSON);
      case "xml" -> Optional.of(XML);
      case "csv" -> Optional.of(CSV);
      case "yaml", "x-yaml" -> Optional.of(YAML);
      default -> Optional.empty();
    };
  }

  /** The format a file name's extension names ({@code orders.csv}), or empty. */
  public static Optional<Format> forFileName(String fileName) {
    if (fileName == null) {
      return Optional.empty();
    }
    int dot = fileName.lastIndexOf('.');
    if (dot < 0) {
      return Optional.empty();
    }
    String extension = fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
    for (Format format : values()) {
      if (format.extensions.contains(extension)) {
        return Optional.of(format);
      }
    }
    return Optional.empty();
  }
}
