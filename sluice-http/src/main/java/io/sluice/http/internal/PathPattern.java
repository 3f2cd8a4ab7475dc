package io.sluice.http.internal;

import io.netty.handler.codec.http.QueryStringDecoder;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A listener's path: literal segments, {@code {name}} segments that match one segment and become a
 * path parameter, and an optional last segment {@code *} that matches the rest (none included).
 * Trailing slashes do not matter: {@code /orders/} is {@code /orders}.
 */
public final class PathPattern {

  private static final Pattern PARAM = Pattern.compile("\\{([A-Za-z_][A-Za-z0-9_]*)}");

  private final String text;
  private final List<String> segments;
  private final boolean rest;

  private PathPattern(String text, List<String> segments, boolean rest) {
    this.text = text;
    this.segments = segments;
    this.rest = rest;
  }

  /** Parses {@code text}; fails naming the key {@code path} and the rule broken. */
  public static PathPattern parse(String text) {
    if (text == null || !text.startsWith("/")) {
      throw invalid(text, "must start with /");
    }
    List<String> segments = new ArrayList<>(split(text));
    boolean rest = !segments.isEmpty() && segments.getLast().equals("*");
    if (rest) {
      segments.removeLast();
    }
    List<String> names = new ArrayList<>();
    for (String segment : segments) {
      if (segment.contains("{") || segment.contains("}") || segment.equals("*")) {
        var matcher = PARAM.matcher(segment);
        if (!matcher.matches()) {
          throw invalid(
              text,
              "segment '"
                  + segment
                  + "' must be literal, a whole {name} (letters, digits, _) or a last *");
        }
        if (names.contains(matcher.group(1))) {
          throw invalid(text, "names the path parameter '" + matcher.group(1) + "' twice");
        }
        names.add(matcher.group(1));
      }
    }
    return new PathPattern(text, List.copyOf(segments), rest);
  }

  private static ConfigurationException invalid(String text, String rule) {
    return new ConfigurationException(ConfigProblem.of("path", text, rule));
  }

  /** The non-empty segments between slashes; no regular expression, it runs per request. */
  private static List<String> split(String path) {
    List<String> segments = new ArrayList<>();
    int start = 0;
    while (start <= path.length()) {
      int slash = path.indexOf('/', start);
      int end = slash < 0 ? path.length() : slash;
      if (end > start) {
        segments.add(path.substring(start, end));
      }
      start = end + 1;
    }
    return segments;
  }

  /** The path parameters when {@code path} (raw, not decoded) matches, else null. */
  public Map<String, String> match(String path) {
    List<String> given = split(path);
    if (given.size() < segments.size() || (!rest && given.size() != segments.size())) {
      return null;
    }
    Map<String, String> params = new HashMap<>();
    for (int i = 0; i < segments.size(); i++) {
      String expected = segments.get(i);
      String actual = QueryStringDecoder.decodeComponent(given.get(i));
      if (expected.startsWith("{")) {
        params.put(expected.substring(1, expected.length() - 1), actual);
      } else if (!expected.equals(actual)) {
        return null;
      }
    }
    return params;
  }

  /** How specific the pattern is: more literal segments first, a trailing * last. */
  int specificity() {
    int literal = 0;
    for (String segment : segments) {
      if (!segment.startsWith("{")) {
        literal++;
      }
    }
    return (segments.size() * 2 + literal) * 2 + (rest ? 0 : 1);
  }

  @Override
  public String toString() {
    return text;
  }
}
