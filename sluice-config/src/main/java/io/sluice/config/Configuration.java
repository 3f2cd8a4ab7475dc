package io.sluice.config;

import io.sluice.core.SluiceException;
import io.sluice.core.app.Application;
import java.util.Map;

/**
 * A configuration file as {@link ConfigLoader#read} found it: the application it describes, to
 * build, and what each section component of the class path made of its section, such as the jobs of
 * {@code sluice.jobs:} ({@code JobsConfig} of sluice-jobs), which run beside the application on its
 * storage, and the batch jobs of {@code batch:} ({@code BatchConfig} of sluice-batch).
 *
 * @param application the application's builder: flows, storage, serialization
 * @param sections what each section was mapped to, by its type
 */
public record Configuration(Application.Builder application, Map<Class<?>, Object> sections) {

  /** Keeps {@code sections}' order and makes it unmodifiable. */
  public Configuration {
    sections = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(sections));
  }

  /**
   * What the section component mapping to {@code type} made of the file (its defaults when the
   * section is absent from the file); fails when no component of the class path maps to it.
   */
  public <T> T section(Class<T> type) {
    Object section = sections.get(type);
    if (section == null) {
      throw new SluiceException(
          "no section of this configuration maps to "
              + type.getName()
              + "; is the module that declares it on the class path?");
    }
    return type.cast(section);
  }
}
