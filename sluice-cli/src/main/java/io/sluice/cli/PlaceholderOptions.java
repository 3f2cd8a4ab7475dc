package io.sluice.cli;

import io.sluice.config.PropertySources;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The {@code --properties} and {@code --property} options of every command that reads a
 * configuration file: where its {@code ${NAME}} placeholders find their values before the system
 * properties and the environment.
 */
final class PlaceholderOptions {

  @Option(
      names = "--properties",
      paramLabel = "FILE",
      description =
          "A properties file (UTF-8) for the $${NAME} placeholders of the configuration;"
              + " repeatable, a later file winning. $${NAME} looks in --property, these files,"
              + " the system properties, then the environment.")
  List<Path> files = new ArrayList<>();

  @Option(
      names = "--property",
      paramLabel = "NAME=VALUE",
      description =
          "A value for $${NAME}, over every properties file; repeatable. Other processes can see"
              + " a command line: pass secrets by the environment or a file instead.")
  Map<String, String> properties = new LinkedHashMap<>();

  /** The sources the options describe; fails naming every properties file it cannot read. */
  PropertySources sources() {
    PropertySources.Builder builder = PropertySources.builder();
    files.forEach(builder::propertiesFile);
    properties.forEach(builder::property);
    return builder.build();
  }
}
