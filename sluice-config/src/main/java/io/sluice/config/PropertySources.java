package io.sluice.config;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the placeholders of a configuration file ({@code ${NAME}}, {@code ${env:NAME}}, {@code
 * ${sys:name}}) find their values: properties given one by one, properties files, the Java system
 * properties and the environment variables. A {@code ${NAME}} is looked up in that order, the first
 * that has the name winning: properties given one by one, then the properties files (a later file
 * over an earlier one), then system properties, then environment variables.
 *
 * <p>Immutable. The system properties and the environment are read once, when it is built; tests
 * give their own ({@link Builder#environment}) because a process cannot change its environment.
 */
public final class PropertySources {

  /** The path of the problems of a properties file. */
  static final String PROPERTIES_FILE = "(properties file)";

  private static final Pattern BAD_UNICODE_ESCAPE =
      Pattern.compile("\\\\u(?![0-9a-fA-F]{4})", Pattern.MULTILINE);

  private final Map<String, String> properties;
  private final List<String> files;
  private final Map<String, String> systemProperties;
  private final Map<String, String> environment;

  private PropertySources(Builder b) {
    this.properties = Map.copyOf(b.properties);
    this.files = List.copyOf(b.fileNames);
    this.systemProperties =
        b.systemProperties != null ? Map.copyOf(b.systemProperties) : systemProperties();
    this.environment = Map.copyOf(b.environment != null ? b.environment : System.getenv());
  }

  /** The sources of a file read with no properties given: system properties and environment. */
  public static PropertySources system() {
    return builder().build();
  }

  /** A builder of sources, with no properties given yet. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The value of {@code name} for {@code ${name}}: from the properties given, the files, the system
   * properties or the environment, in that order; null when none has it.
   */
  String lookup(String name) {
    String value = properties.get(name);
    if (value == null) {
      value = systemProperties.get(name);
    }
    return value != null ? value : environment.get(name);
  }

  /** The environment variable {@code name}, or null. */
  String environment(String name) {
    return environment.get(name);
  }

  /** The system property {@code name}, or null. */
  String systemProperty(String name) {
    return systemProperties.get(name);
  }

  /** The properties files given, as named to the builder, for messages. */
  List<String> files() {
    return files;
  }

  private static Map<String, String> systemProperties() {
    Map<String, String> copy = new HashMap<>();
    Properties system = System.getProperties();
    for (String name : system.stringPropertyNames()) {
      copy.put(name, system.getProperty(name));
    }
    return copy;
  }

  /**
   * Builds {@link PropertySources}. Properties files are read by {@link #build()}, which reports
   * every file that is missing or does not parse at once.
   */
  public static final class Builder {

    private final Map<String, String> given = new LinkedHashMap<>();
    private final List<Path> paths = new ArrayList<>();
    private final Map<String, String> properties = new HashMap<>();
    private final List<String> fileNames = new ArrayList<>();
    private Map<String, String> systemProperties;
    private Map<String, String> environment;

    private Builder() {}

    /**
     * Adds a properties file (UTF-8, {@link Properties} syntax): its properties win over those of
     * the files added before it, and lose to those given by {@link #property}.
     */
    public Builder propertiesFile(Path file) {
      paths.add(file);
      return this;
    }

    /** Gives {@code name} the value {@code value}, over any properties file. */
    public Builder property(String name, String value) {
      given.put(name, value);
      return this;
    }

    /** Uses {@code variables} as the environment instead of the process's (for tests). */
    public Builder environment(Map<String, String> variables) {
      this.environment = Map.copyOf(variables);
      return this;
    }

    /** Uses {@code properties} as the system properties instead of the JVM's (for tests). */
    public Builder systemProperties(Map<String, String> properties) {
      this.systemProperties = Map.copyOf(properties);
      return this;
    }

    /**
     * The sources, their files read; a {@link ConfigurationException} naming every file that does
     * not exist, cannot be read, is not UTF-8 or does not parse.
     */
    public PropertySources build() {
      properties.clear();
      fileNames.clear();
      List<ConfigProblem> problems = new ArrayList<>();
      for (Path file : paths) {
        fileNames.add(file.toString());
        try {
          read(file).forEach((k, v) -> properties.put((String) k, (String) v));
        } catch (ConfigurationException e) {
          problems.addAll(e.problems());
        }
      }
      if (!problems.isEmpty()) {
        throw new ConfigurationException(problems);
      }
      properties.putAll(given);
      return new PropertySources(this);
    }

    private static Properties read(Path file) {
      byte[] bytes;
      try {
        if (Files.size(file) > ConfigFileReader.MAX_BYTES) {
          throw problem(
              file,
              "is larger than 1 MiB, the most a properties file may hold; is it the right file?");
        }
        bytes = ConfigFileReader.readAtMost(file);
        if (bytes.length > ConfigFileReader.MAX_BYTES) { // a pipe or device, or it grew meanwhile
          throw problem(file, "gives more than 1 MiB, the most a properties file may hold");
        }
      } catch (NoSuchFileException e) {
        throw problem(
            file, "does not exist (resolved to " + file.toAbsolutePath().normalize() + ")");
      } catch (IOException e) {
        throw problem(file, "could not be read (" + e + "); check that it is a readable file");
      }
      String text;
      try {
        text = ConfigFileReader.decode(file.toString(), bytes);
      } catch (ConfigurationException e) {
        ConfigProblem p = e.problems().getFirst();
        throw new ConfigurationException(
            new ConfigProblem(PROPERTIES_FILE, file.toString(), p.rule(), p.source()));
      }
      Properties properties = new Properties();
      try {
        properties.load(new StringReader(text));
      } catch (IOException | IllegalArgumentException e) {
        Matcher bad = BAD_UNICODE_ESCAPE.matcher(text);
        String at = file.toString();
        if (bad.find()) {
          at += ":" + (text.substring(0, bad.start()).chars().filter(c -> c == '\n').count() + 1);
        }
        throw new ConfigurationException(
            new ConfigProblem(
                PROPERTIES_FILE,
                file.toString(),
                "does not parse as a properties file: "
                    + e.getMessage()
                    + " (a backslash-u must be followed by four hexadecimal digits; write \\\\ for"
                    + " a backslash)",
                at));
      }
      return properties;
    }

    private static ConfigurationException problem(Path file, String rule) {
      return new ConfigurationException(
          new ConfigProblem(PROPERTIES_FILE, file.toString(), rule, null));
    }
  }
}
