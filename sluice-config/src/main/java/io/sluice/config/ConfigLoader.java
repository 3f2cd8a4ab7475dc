package io.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.ProblemCollector;
import io.sluice.config.spi.SourceMap;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.app.Application;
import java.nio.file.Path;

/**
 * Reads a Sluice YAML configuration file into an {@link Application.Builder}. The file is checked
 * against the shipped JSON Schema ({@link #schema()}), then mapped to flows; every problem found on
 * the way (YAML syntax, schema violations, expressions that do not compile, invalid cron
 * expressions, component classes that cannot be loaded, duplicate flow names, serializers and
 * codecs that are not installed, job handlers naming no flow) is reported at once in one {@link
 * ConfigurationException}, each with its dotted path, the bad value, the rule and its {@code
 * file:line:column}.
 *
 * <p>The builder comes with its stored values made from {@code serialization:}, their serializers
 * and codecs discovered with the component class loader. {@link #read} gives it with the jobs of
 * the sections of the file ({@link Configuration#section}), such as {@code sluice.jobs:}.
 *
 * <p>Relative directories in the file are resolved against the file's own directory, so a
 * configuration means the same whatever the working directory.
 *
 * <p>Placeholders in values ({@code ${NAME}}, {@code ${NAME:default}}, {@code ${env:NAME}}, {@code
 * ${sys:name}}, {@code ${file:path}}, {@code ${secret:...}}) are resolved before the schema checks
 * the file, from the {@link PropertySources} given ({@link PropertySources#system()} when none is);
 * one that is not set is a problem at its line. The values of secret ones are registered with
 * {@link Secrets}, and masked in every problem reported.
 */
public final class ConfigLoader {

  private ConfigLoader() {}

  /**
   * Reads {@code file}, loading components with the thread's context class loader (or this class's
   * loader when there is none).
   */
  public static Application.Builder load(Path file) {
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    return load(file, context != null ? context : ConfigLoader.class.getClassLoader());
  }

  /** Reads {@code file}, loading {@code component} classes from {@code componentLoader}. */
  public static Application.Builder load(Path file, ClassLoader componentLoader) {
    return read(file, componentLoader).application();
  }

  /**
   * Reads {@code file} with its jobs ({@code sluice.jobs:}), loading {@code component} classes and
   * job handlers from {@code componentLoader}.
   */
  public static Configuration read(Path file, ClassLoader componentLoader) {
    return read(file, componentLoader, PropertySources.system());
  }

  /**
   * Reads {@code file} with its jobs, as {@link #read(Path, ClassLoader)} does, its placeholders
   * resolved from {@code sources} (properties files, system properties, environment).
   */
  public static Configuration read(
      Path file, ClassLoader componentLoader, PropertySources sources) {
    Path absolute = file.toAbsolutePath().normalize();
    String yaml = ConfigFileReader.read(absolute);
    Path directory = absolute.getParent() != null ? absolute.getParent() : absolute;
    return read(
        absolute.getFileName().toString(),
        yaml,
        directory,
        componentLoader,
        sources,
        SchemaValidation.DEFAULT);
  }

  /**
   * Reads configuration text, for tests and embedding. {@code sourceName} names it in problems
   * ({@code app.yaml:12:5}); relative directories resolve against {@code baseDirectory}.
   */
  public static Application.Builder parse(
      String sourceName, String yaml, Path baseDirectory, ClassLoader componentLoader) {
    return read(sourceName, yaml, baseDirectory, componentLoader).application();
  }

  /** Reads configuration text with its jobs ({@code sluice.jobs:}), as {@link #parse} does. */
  public static Configuration read(
      String sourceName, String yaml, Path baseDirectory, ClassLoader componentLoader) {
    return read(sourceName, yaml, baseDirectory, componentLoader, PropertySources.system());
  }

  /**
   * Reads configuration text with its jobs, as {@link #parse} does, its placeholders resolved from
   * {@code sources}; a {@code ${file:path}} is relative to {@code baseDirectory}.
   */
  public static Configuration read(
      String sourceName,
      String yaml,
      Path baseDirectory,
      ClassLoader componentLoader,
      PropertySources sources) {
    return read(
        sourceName, yaml, baseDirectory, componentLoader, sources, SchemaValidation.DEFAULT);
  }

  /** Reads configuration text with the components of {@code validation}'s schema. */
  static Configuration read(
      String sourceName,
      String yaml,
      Path baseDirectory,
      ClassLoader componentLoader,
      SchemaValidation validation) {
    return read(
        sourceName, yaml, baseDirectory, componentLoader, PropertySources.system(), validation);
  }

  private static Configuration read(
      String sourceName,
      String yaml,
      Path baseDirectory,
      ClassLoader componentLoader,
      PropertySources sources,
      SchemaValidation validation) {
    try {
      return resolveAndMap(sourceName, yaml, baseDirectory, componentLoader, sources, validation);
    } catch (ConfigurationException e) {
      throw Secrets.mask(e);
    }
  }

  private static Configuration resolveAndMap(
      String sourceName,
      String yaml,
      Path baseDirectory,
      ClassLoader componentLoader,
      PropertySources sources,
      SchemaValidation validation) {
    ConfigFileReader.check(sourceName, yaml);
    SourceMap sourceMap = new SourceMap(sourceName);
    ProblemCollector problems = new ProblemCollector(sourceMap);
    PlaceholderResolver placeholders =
        new PlaceholderResolver(
            sources, baseDirectory.toAbsolutePath().normalize(), sourceName, problems);
    JsonNode root = new YamlTreeReader(sourceMap, problems, placeholders).read(yaml);
    if (root == null) {
      problems.throwIfAny();
    }
    ProblemCollector schema = new ProblemCollector(sourceMap);
    validation.validate(root, schema);
    for (ConfigProblem p : schema.problems()) {
      // A value whose placeholder failed is reported as such, not as the placeholder's text.
      if (!placeholders.failed().contains(p.path())) {
        problems.add(placeholders.explain(p));
      }
    }
    ProblemCollector mapping = new ProblemCollector(sourceMap);
    Configuration configuration =
        new ApplicationMapper(
                validation.registry(),
                baseDirectory.toAbsolutePath().normalize(),
                componentLoader,
                mapping)
            .map(new ConfigNode(root, "", mapping));
    problems.addUnexplained(mapping.problems().stream().map(placeholders::explain).toList());
    problems.throwIfAny();
    return configuration;
  }

  /**
   * The JSON Schema (draft 2020-12) that configuration files are checked against, with every
   * default: those the Java builders have come from the builders themselves.
   */
  public static String schema() {
    return SchemaValidation.DEFAULT.served();
  }
}
