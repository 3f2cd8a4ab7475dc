package io.sluice.cli;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The {@code --classpath} option: where user components (Java classes) are loaded from. */
final class ComponentClasspath {

  @Option(
      names = {"-cp", "--classpath"},
      split = ":",
      paramLabel = "PATH",
      description = "Jars or class directories holding your components, separated by ':'.")
  List<Path> entries = new ArrayList<>();

  /** A class loader over the entries, or the application's when there are none. */
  ClassLoader loader() {
    ClassLoader parent = ComponentClasspath.class.getClassLoader();
    if (entries.isEmpty()) {
      return parent;
    }
    List<URL> urls = new ArrayList<>();
    for (Path entry : entries) {
      if (!Files.exists(entry)) {
        throw new ConfigurationException(
            ConfigProblem.of(
                "--classpath",
                entry,
                "does not exist (resolved to " + entry.toAbsolutePath() + ")"));
      }
      try {
        urls.add(entry.toUri().toURL());
      } catch (MalformedURLException e) {
        throw new ConfigurationException(
            ConfigProblem.of("--classpath", entry, "is not a valid path"));
      }
    }
    return new URLClassLoader("components", urls.toArray(URL[]::new), parent);
  }
}
