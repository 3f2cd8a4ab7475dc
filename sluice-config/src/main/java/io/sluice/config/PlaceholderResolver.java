package io.sluice.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.sluice.config.spi.ProblemCollector;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Resolves the placeholders of a scalar value of a configuration file: {@code ${NAME}}, {@code
 * ${NAME:default}}, {@code ${env:NAME}}, {@code ${sys:name}}, {@code ${file:path}}, each of them
 * wrapped or not in {@code ${secret:...}}. Every placeholder that cannot be resolved is a problem
 * at its line and column; <code>$${</code> is the escape of a literal <code>${</code>; the values
 * of secret ones are registered with {@link Secrets}.
 *
 * <p>A plain (unquoted) value that is one placeholder and nothing else is typed as YAML would have
 * typed the resolved text written plain, so that {@code port: ${PORT}} is an integer when {@code
 * PORT} is {@code 8080}; only numbers and booleans are, and never a secret.
 */
final class PlaceholderResolver {

  /** The most bytes a {@code ${file:...}} may read (1 MiB, as a configuration file). */
  static final int MAX_FILE_BYTES = ConfigFileReader.MAX_BYTES;

  private static final String SECRET = "secret:";
  private static final String ENV = "env:";
  private static final String SYS = "sys:";
  private static final String FILE = "file:";
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]+");
  private static final ObjectMapper SCALARS = new ObjectMapper(new YAMLFactory());

  private final PropertySources sources;
  private final Path baseDirectory;
  private final String fileName;
  private final ProblemCollector problems;
  private final Set<String> failed = new HashSet<>();
  private final Map<String, String> written = new HashMap<>();

  PlaceholderResolver(
      PropertySources sources, Path baseDirectory, String fileName, ProblemCollector problems) {
    this.sources = sources;
    this.baseDirectory = baseDirectory;
    this.fileName = fileName;
    this.problems = problems;
  }

  /** The paths whose values held a placeholder that could not be resolved. */
  Set<String> failed() {
    return failed;
  }

  /**
   * {@code problem} itself, or, when its value came from placeholders, the same problem saying what
   * was written: a rule broken by {@code 80800} reads better next to {@code ${PORT}0}.
   */
  ConfigProblem explain(ConfigProblem problem) {
    String text = written.get(problem.path());
    return text == null
        ? problem
        : new ConfigProblem(
            problem.path(),
            problem.value(),
            problem.rule() + " (resolved from " + text + ")",
            problem.source());
  }

  /** One placeholder's value, and whether it is secret. */
  private record Resolved(String value, boolean secret) {}

  /**
   * The value of the text {@code text} at {@code path}, written at {@code line}:{@code column}, its
   * placeholders resolved; the text itself when one cannot be (a problem is recorded). {@code
   * plain} tells an unquoted value; {@code exact} one whose characters are at their column (plain,
   * on one line), so that a problem points at the <code>${</code> itself, not at the value.
   */
  JsonNode resolve(String path, String text, boolean plain, boolean exact, int line, int column) {
    if (text.indexOf('$') < 0) {
      return TextNode.valueOf(text);
    }
    StringBuilder out = new StringBuilder(text.length());
    List<Resolved> resolved = new ArrayList<>();
    boolean ok = true;
    int i = 0;
    while (i < text.length()) {
      if (text.startsWith("$${", i)) {
        out.append("${");
        i += 3;
        continue;
      }
      if (!text.startsWith("${", i)) {
        out.append(text.charAt(i++));
        continue;
      }
      String at = fileName + ":" + line + ":" + (exact ? column + i : column);
      int end = text.indexOf('}', i + 2);
      if (end < 0) {
        problem(
            path,
            text.substring(i),
            "is a placeholder without its closing '}'; write $${ for a literal ${",
            at);
        ok = false;
        break;
      }
      String placeholder = text.substring(i, end + 1);
      String body = text.substring(i + 2, end);
      Resolved value =
          body.contains("${")
              ? invalid(
                  path,
                  placeholder,
                  "holds a placeholder inside a placeholder, which is not supported: a default is"
                      + " plain text",
                  at)
              : resolve(path, placeholder, body, at);
      if (value == null) {
        ok = false;
      } else {
        out.append(value.value());
        resolved.add(value);
      }
      i = end + 1;
    }
    if (!ok) {
      failed.add(path);
      return TextNode.valueOf(text);
    }
    if (!resolved.isEmpty()) {
      written.put(path, text);
    }
    String result = out.toString();
    boolean whole =
        resolved.size() == 1 && text.startsWith("${") && text.indexOf('}') == text.length() - 1;
    if (plain && whole && !resolved.getFirst().secret()) {
      return typed(result);
    }
    return TextNode.valueOf(result);
  }

  private Resolved resolve(String path, String placeholder, String body, String at) {
    boolean secret = body.startsWith(SECRET);
    String form = secret ? body.substring(SECRET.length()) : body;
    String value;
    if (form.startsWith(FILE)) {
      value = file(path, placeholder, form.substring(FILE.length()), at);
    } else {
      String kind = form.startsWith(ENV) ? ENV : form.startsWith(SYS) ? SYS : "";
      String rest = form.substring(kind.length());
      int colon = rest.indexOf(':');
      String name = colon < 0 ? rest : rest.substring(0, colon);
      String fallback = colon < 0 ? null : rest.substring(colon + 1);
      if (name.isEmpty()) {
        return invalid(
            path,
            placeholder,
            "names nothing: write ${NAME}, ${NAME:default}, ${env:NAME}, ${sys:name},"
                + " ${file:path} or ${secret:...} around one of them; $${ is a literal ${",
            at);
      }
      if (!NAME.matcher(name).matches()) {
        return invalid(
            path,
            placeholder,
            "has a name '"
                + name
                + "' that is no name: a name holds letters, digits, '_', '.' and '-'",
            at);
      }
      value =
          switch (kind) {
            case ENV -> sources.environment(name);
            case SYS -> sources.systemProperty(name);
            default -> sources.lookup(name);
          };
      if (value == null && fallback != null) {
        // A default is written in the file for anyone to read: masking it would hide a word
        // such as "none" in every log line, and protect nothing.
        return new Resolved(fallback, secret);
      }
      if (value == null) {
        return invalid(path, placeholder, unset(secret ? SECRET + kind : kind, kind, name), at);
      }
    }
    if (value == null) {
      return null;
    }
    if (secret) {
      Secrets.register(value);
    }
    return new Resolved(value, secret);
  }

  /** The rule of {@code name} unset, {@code prefix} the placeholder's ({@code secret:env:}). */
  private String unset(String prefix, String kind, String name) {
    String where =
        switch (kind) {
          case ENV -> "the environment has no variable " + name;
          case SYS -> "no system property is named " + name + " (-D" + name + "=...)";
          default ->
              "no "
                  + (sources.files().isEmpty()
                      ? "properties file given"
                      : "properties file (" + String.join(", ", sources.files()) + ")")
                  + ", system property or environment variable is named "
                  + name;
        };
    return "is not set: "
        + where
        + "; set it, or give a default after a colon: ${"
        + prefix
        + name
        + ":default}";
  }

  /** The text of the file {@code name}, relative to the configuration's directory; or null. */
  private String file(String path, String placeholder, String name, String at) {
    if (name.isEmpty()) {
      invalid(path, placeholder, "names no file: write ${file:path}", at);
      return null;
    }
    Path file = baseDirectory.resolve(name).normalize();
    byte[] bytes;
    try {
      if (Files.size(file) > MAX_FILE_BYTES) {
        invalid(
            path,
            placeholder,
            "reads "
                + file
                + ", which is larger than "
                + MAX_FILE_BYTES
                + " bytes (1 MiB), the most a ${file:...} may read",
            at);
        return null;
      }
      bytes = ConfigFileReader.readAtMost(file);
      if (bytes.length > MAX_FILE_BYTES) { // a pipe or a device, or it grew while it was read
        invalid(
            path,
            placeholder,
            "reads " + file + ", which gives more than " + MAX_FILE_BYTES + " bytes (1 MiB)",
            at);
        return null;
      }
    } catch (NoSuchFileException e) {
      invalid(
          path,
          placeholder,
          "reads "
              + file
              + ", which does not exist (a relative path is relative to the"
              + " configuration file's directory)",
          at);
      return null;
    } catch (IOException e) {
      invalid(path, placeholder, "reads " + file + ", which could not be read (" + e + ")", at);
      return null;
    }
    String text;
    try {
      text = ConfigFileReader.decode(file.toString(), bytes);
    } catch (ConfigurationException e) {
      ConfigProblem p = e.problems().getFirst();
      invalid(path, placeholder, "reads " + p.source() + ", which " + p.rule(), at);
      return null;
    }
    if (text.endsWith("\r\n")) {
      return text.substring(0, text.length() - 2);
    }
    return text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
  }

  private Resolved invalid(String path, String placeholder, String rule, String at) {
    problem(path, placeholder, rule, at);
    return null;
  }

  private void problem(String path, String value, String rule, String at) {
    problems.add(ConfigProblem.of(path.isEmpty() ? YamlTreeReader.FILE : path, value, rule).at(at));
  }

  /** The text typed as YAML types a plain scalar: a number or a boolean, else the text. */
  private static JsonNode typed(String text) {
    if (text.isEmpty()
        || text.indexOf('#') >= 0
        || text.indexOf('\n') >= 0
        || !text.strip().equals(text)) {
      return TextNode.valueOf(text);
    }
    try {
      JsonNode node = SCALARS.readTree(text);
      if (node != null && (node.isNumber() || node.isBoolean())) {
        return node;
      }
    } catch (JsonProcessingException e) {
      // not a YAML scalar at all: it stays text
    }
    return TextNode.valueOf(text);
  }
}
