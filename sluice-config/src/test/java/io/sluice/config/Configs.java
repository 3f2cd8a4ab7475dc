package io.sluice.config;

import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.app.Application;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Test helpers: parse configuration text as if it were {@code app.yaml} in a directory. */
final class Configs {

  static final Path BASE = Path.of("/etc/sluice");

  private Configs() {}

  static Application.Builder parse(String yaml) {
    return ConfigLoader.parse("app.yaml", yaml, BASE, Configs.class.getClassLoader());
  }

  static Configuration read(String yaml) {
    return ConfigLoader.read("app.yaml", yaml, BASE, Configs.class.getClassLoader());
  }

  /** Reads the text, its placeholders resolved from {@code sources}. */
  static Configuration read(String yaml, PropertySources sources) {
    return ConfigLoader.read("app.yaml", yaml, BASE, Configs.class.getClassLoader(), sources);
  }

  /**
   * Reads the text with placeholders from {@code sources}, a {@code ${file:}} from {@code base}.
   */
  static Configuration read(String yaml, Path base, PropertySources sources) {
    return ConfigLoader.read("app.yaml", yaml, base, Configs.class.getClassLoader(), sources);
  }

  /** The problems the text has with placeholders from {@code sources}; fails when it has none. */
  static List<ConfigProblem> problems(String yaml, PropertySources sources) {
    ConfigurationException e =
        catchThrowableOfType(ConfigurationException.class, () -> read(yaml, sources));
    if (e == null) {
      throw new AssertionError("expected configuration problems, found none in:\n" + yaml);
    }
    return e.problems();
  }

  /** Sources with no properties file, no system property and only {@code environment}. */
  static PropertySources environment(Map<String, String> environment) {
    return PropertySources.builder().systemProperties(Map.of()).environment(environment).build();
  }

  static Application build(String yaml) {
    return parse(yaml).build();
  }

  /** The problems the text has; fails when it has none. */
  static List<ConfigProblem> problems(String yaml) {
    ConfigurationException e =
        catchThrowableOfType(ConfigurationException.class, () -> parse(yaml));
    if (e == null) {
      throw new AssertionError("expected configuration problems, found none in:\n" + yaml);
    }
    return e.problems();
  }

  /** The rule of the problem the text has at {@code path}; fails when it has none there. */
  static String rule(String yaml, String path) {
    return problems(yaml).stream()
        .filter(p -> p.path().equals(path))
        .map(ConfigProblem::rule)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no problem at " + path));
  }
}
