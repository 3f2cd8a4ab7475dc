package io.sluice.core.vm.queue;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-memory VM queues of one application, by name. A queue exists from its first use, by a
 * publisher or a listener; each holds at most the application's VM queue capacity.
 */
public final class VmQueues {

  private final int capacity;
  private final MeterRegistry registry;
  private final Map<String, VmQueue> queues = new ConcurrentHashMap<>();

  /** Queues of this capacity each, whose depth is published to {@code registry}. */
  public VmQueues(int capacity, MeterRegistry registry) {
    this.capacity = capacity;
    this.registry = registry;
  }

  /** The queue with this name, created empty if it did not exist. */
  public VmQueue queue(String name) {
    return queues.computeIfAbsent(name, this::create);
  }

  private VmQueue create(String name) {
    VmQueue queue = new VmQueue(name, capacity);
    Gauge.builder("sluice.vm.queued", queue, VmQueue::size)
        .tag("queue", name)
        .description("Entries waiting in the VM queue")
        .register(registry);
    Gauge.builder("sluice.vm.capacity", queue, VmQueue::capacity)
        .tag("queue", name)
        .description("The most entries the VM queue holds")
        .register(registry);
    FunctionCounter.builder("sluice.vm.rejected", queue, VmQueue::refusedCount)
        .tag("queue", name)
        .description("Publishes that found the VM queue full past their timeout")
        .register(registry);
    return queue;
  }
}
