package io.sluice.core.transaction;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The transactional resources of an application, by name: the connectors register theirs (each data
 * source), and a {@code try} scope finds the one its {@code transaction} names when it starts.
 * Thread-safe.
 */
public final class TransactionalResources {

  private final Map<String, TransactionalResource> byName = new ConcurrentHashMap<>();

  /** No resource yet. */
  public TransactionalResources() {}

  /**
   * Registers {@code resource} under its name.
   *
   * @throws IllegalArgumentException when another resource has that name already
   */
  public void register(TransactionalResource resource) {
    TransactionalResource before = byName.putIfAbsent(resource.name(), resource);
    if (before != null && before != resource) {
      throw new IllegalArgumentException(
          "a transactional resource named '" + resource.name() + "' is registered already");
    }
  }

  /** The resource named {@code name}, or null. */
  public TransactionalResource find(String name) {
    return byName.get(name);
  }

  /** The names of the resources, sorted. */
  public Set<String> names() {
    return Collections.unmodifiableSet(new TreeSet<>(byName.keySet()));
  }
}
