package io.sluice.config.spi;

import io.sluice.core.transaction.TransactionalResources;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The transactional resources of one file (the sections register them: each data source) and the
 * names the file's {@code try} scopes give as {@code transaction}, which the file checks once
 * everything is mapped (sections are mapped after the flows that name them). Shared through {@link
 * MappingContext#shared}.
 */
public final class TransactionalNames {

  private final TransactionalResources resources = new TransactionalResources();
  private final Map<String, String> references = new LinkedHashMap<>();

  /** None yet. */
  public TransactionalNames() {}

  /** The file's resources, by name. */
  public TransactionalResources resources() {
    return resources;
  }

  /** Notes that the value at {@code path} names the resource {@code name}. */
  public void reference(String path, String name) {
    references.put(path, name);
  }

  /** Records a problem for each name that is no resource of the file. */
  public void check(ProblemCollector problems) {
    references.forEach(
        (path, name) -> problems.knownName(path, name, resources.names(), "data source"));
  }
}
