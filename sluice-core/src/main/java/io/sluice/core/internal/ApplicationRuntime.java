package io.sluice.core.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.FlowBusyException;
import io.sluice.core.FlowStartException;
import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.flow.Flow;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.TimerService;
import io.sluice.core.store.Storage;
import io.sluice.core.vm.DurableQueueListener;
import io.sluice.core.vm.queue.VmQueues;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running side of an {@link io.sluice.core.app.Application}: flows, shared pools, lifecycle.
 */
public final class ApplicationRuntime {

  private static final Logger LOG = LoggerFactory.getLogger(ApplicationRuntime.class);

  private final Map<String, FlowRuntime> flows = new LinkedHashMap<>();
  private final Services services;
  private final SystemTimerService ownTimer;
  private final CpuPool ownCpu;
  private volatile boolean stopping;

  /**
   * A runtime for these flows; {@code timer} null means the system timer; {@code storage} opens the
   * application's storage on first use; {@code host} null means a CPU pool of its own, else the
   * flows share {@code host}'s (one pool per process's cores, and its meters registered once).
   */
  public ApplicationRuntime(
      List<Flow> flows,
      Clock clock,
      TimerService timer,
      MeterRegistry registry,
      VmQueues vmQueues,
      Supplier<Storage> storage,
      StoredValues storedValues,
      ApplicationRuntime host) {
    this.ownTimer = timer == null ? new SystemTimerService(clock) : null;
    this.ownCpu =
        host == null ? new CpuPool(Runtime.getRuntime().availableProcessors(), registry) : null;
    this.services =
        new Services(
            clock,
            timer == null ? ownTimer : timer,
            registry,
            vmQueues,
            host == null ? ownCpu : host.services.cpu(),
            storage,
            storedValues,
            flowsByName(flows));
    for (Flow flow : flows) {
      this.flows.put(flow.name(), new FlowRuntime(flow, services));
    }
  }

  private static Map<String, Flow> flowsByName(List<Flow> flows) {
    Map<String, Flow> byName = new LinkedHashMap<>();
    flows.forEach(flow -> byName.put(flow.name(), flow));
    return Collections.unmodifiableMap(byName);
  }

  /**
   * A context on the application's services (clock, timer, meters, VM queues, storage) named {@code
   * name}, for a source or processor run outside the application's flows; it runs nothing detached.
   */
  public FlowContext context(String name) {
    return new ServicesContext(services) {
      @Override
      public String flowName() {
        return name;
      }

      @Override
      public CompletableFuture<Message> runDetached(List<Processor> chain, Message message) {
        return CompletableFuture.failedFuture(
            new UnsupportedOperationException(name + " runs no processors detached"));
      }
    };
  }

  /** Starts every flow in order; if one fails, stops those already started and throws. */
  public void start() {
    List<FlowRuntime> started = new ArrayList<>();
    for (FlowRuntime flow : flows.values()) {
      try {
        flow.start();
        started.add(flow);
      } catch (Exception e) {
        for (FlowRuntime done : started.reversed()) {
          done.stopSource();
          closeQuietly(done, Duration.ofSeconds(5));
        }
        shutdownShared();
        throw e instanceof FlowStartException fse ? fse : new FlowStartException(flow.name(), e);
      }
      LOG.info("Flow '{}' started: {}", flow.name(), Describe.flow(flow.flow()));
    }
  }

  /**
   * Stops gracefully: every source stops, messages in flight get up to {@code timeout} to finish,
   * then the pools stop. Returns true when nothing was still in flight.
   */
  public boolean stop(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    stopping = true;
    boolean drained = true;
    try {
      // First the sources fed from outside; the flows drain while the sources fed by other
      // flows (VM listeners) still answer the requests those flows make. Then those.
      for (boolean fedByOtherFlows : new boolean[] {false, true}) {
        flows.values().stream()
            .filter(flow -> flow.fedByOtherFlows() == fedByOtherFlows)
            .forEach(
                flow -> {
                  flow.stopSource();
                  flow.stopAccepting();
                });
        drained = awaitIdle(deadline, fedByOtherFlows, timeout);
      }
      for (FlowRuntime flow : flows.values()) {
        flow.close(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      drained = false;
    } finally {
      shutdownShared();
    }
    return drained;
  }

  /** Waits for every flow to be idle by the deadline; warns of what is left when told to. */
  private boolean awaitIdle(long deadline, boolean warn, Duration timeout)
      throws InterruptedException {
    boolean idle = true;
    for (FlowRuntime flow : flows.values()) {
      Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
      if (!flow.awaitIdle(left)) {
        idle = false;
        if (warn) {
          LOG.warn(
              "Flow '{}' still held {} message(s) after the shutdown timeout of {}; they "
                  + "are abandoned: a file stays in its directory and is read again at the next "
                  + "start, while a scheduler firing, an in-memory VM entry or a message sent by "
                  + "the application itself is lost",
              flow.name(),
              flow.inFlightCount(),
              timeout);
        }
      }
    }
    return idle;
  }

  /** Stops the flow's source alone (see FlowRuntime.pause); false when it was stopped already. */
  public boolean pauseFlow(String flow) {
    if (stopping) {
      return false;
    }
    boolean paused = runtime(flow).pause();
    if (paused) {
      LOG.info("Flow '{}' stopped by an operator: its source takes no message", flow);
    }
    return paused;
  }

  /** Starts again a flow an operator stopped; false when it was not stopped. */
  public boolean resumeFlow(String flow) {
    if (stopping) {
      return false;
    }
    try {
      boolean resumed = runtime(flow).resume();
      if (resumed) {
        LOG.info("Flow '{}' started again by an operator", flow);
      }
      return resumed;
    } catch (Exception e) {
      throw new SluiceException("Flow '" + flow + "' could not start again: " + e.getMessage(), e);
    }
  }

  /** Whether an operator stopped the flow. */
  public boolean flowPaused(String flow) {
    return runtime(flow).paused();
  }

  /** The durable queues the flows take from now, with their listeners, by flow. */
  public Map<String, List<DurableQueueListener>> durableListeners() {
    Map<String, List<DurableQueueListener>> all = new LinkedHashMap<>();
    flows.forEach((name, flow) -> all.put(name, flow.durableListeners()));
    return all;
  }

  /** Messages the flow holds now. */
  public int inFlight(String flow) {
    return runtime(flow).inFlightCount();
  }

  private FlowRuntime runtime(String flow) {
    FlowRuntime runtime = flows.get(flow);
    if (runtime == null) {
      throw new SluiceException("No flow named '" + flow + "'; the flows are " + flows.keySet());
    }
    return runtime;
  }

  /** Hands a message to a flow directly, as its source would. */
  public CompletableFuture<Message> send(String flow, Message message) {
    FlowRuntime runtime = flows.get(flow);
    if (runtime == null) {
      throw new SluiceException("No flow named '" + flow + "'; the flows are " + flows.keySet());
    }
    if (stopping) {
      return CompletableFuture.failedFuture(
          new FlowBusyException(
              flow,
              "receiver",
              FlowBusyException.Reason.NOT_RUNNING,
              "the application is stopping"));
    }
    return runtime.submit(message);
  }

  private void closeQuietly(FlowRuntime flow, Duration timeout) {
    try {
      flow.close(timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the pool and timer of an application that was never started; returns true. */
  public boolean release() {
    shutdownShared();
    return true;
  }

  private void shutdownShared() {
    if (ownCpu != null) {
      ownCpu.shutdown();
    }
    if (ownTimer != null) {
      ownTimer.close();
    }
  }
}
