package io.sluice.core.vm;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-memory VM queues of one application, by name. A queue exists from its first use, by a
 * publisher or a listener; each holds at most the application's VM queue capacity.
 */
public final class VmQueues {

  private final int capacity;
  private final Map<String, VmQueue> queues = new ConcurrentHashMap<>();

  /** Queues of this capacity each. */
  public VmQueues(int capacity) {
    this.capacity = capacity;
  }

  /** The queue with this name, created empty if it did not exist. */
  public VmQueue queue(String name) {
    return queues.computeIfAbsent(name, n -> new VmQueue(n, capacity));
  }
}
