package io.sluice.core.app;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * An application's flows, durable queues and CPU pool as MXBeans on the platform MBean server
 * ({@code io.sluice:type=Flow,name=...}, {@code type=Queue}, {@code type=Pool}), with their figures
 * and the operations operators use: stop and start a flow, look at, requeue or drop dead letters.
 * JConsole, VisualVM or any JMX client reaches them through the JVM's own agent ({@code
 * -Dcom.sun.management.jmxremote.port=...} in {@code SLUICE_JAVA_OPTS}).
 */
public final class Jmx {

  private Jmx() {}

  /** A flow: its figures, and stop/start of its source. */
  public interface FlowMXBean {
    /** The flow's name. */
    String getName();

    /** Its strategy: synchronous, staged or auto. */
    String getStrategy();

    /** Whether an operator stopped it. */
    boolean isStopped();

    /** Messages it holds now. */
    int getInFlight();

    /** Messages that completed. */
    long getCompleted();

    /** Messages that failed. */
    long getFailed();

    /** Messages refused at the door (busy, not running). */
    long getRefused();

    /** Messages an exhausted stage discarded. */
    long getDiscarded();

    /** Stops the flow's source; false when it was stopped already. */
    boolean stop();

    /** Starts it again; false when it was not stopped. */
    boolean start();
  }

  /** A durable queue a flow takes from: its depth and its dead letters. */
  public interface QueueMXBean {
    /** The queue's name in the store. */
    String getName();

    /** The flow that takes from it. */
    String getFlow();

    /** Messages in it, ready or locked (dead letters not counted). */
    long getDepth();

    /** Messages handed to the flow whose work has not ended. */
    int getInFlight();

    /** Its dead letters. */
    long getDeadLetters();

    /** Up to {@code max} dead letters, oldest first: {@code id, deliveries, reason: payload}. */
    List<String> deadLetters(int max);

    /** Puts dead letter {@code id} back, ready now; false when it is no longer a dead letter. */
    boolean requeueDeadLetter(long id);

    /** Deletes dead letter {@code id}; false when it is no longer a dead letter. */
    boolean dropDeadLetter(long id);
  }

  /** The CPU pool the flows share for CPU_INTENSIVE work. */
  public interface PoolMXBean {
    /** Threads running a task. */
    double getActive();

    /** Tasks waiting for a thread. */
    double getQueued();

    /** Its thread limit. */
    double getLimit();

    /** Tasks it finished. */
    double getCompleted();
  }

  /**
   * Registers {@code app}'s beans (call it once the application started, so its queues are open);
   * closing the result unregisters them. A name already registered (a second application of the
   * same names in this JVM) is replaced.
   */
  public static AutoCloseable register(Application app) {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    Operations operations = new Operations(app);
    List<ObjectName> names = new ArrayList<>();
    try {
      for (Operations.FlowView flow : operations.flows()) {
        names.add(put(server, "Flow", flow.name(), new FlowBean(operations, flow.name())));
      }
      for (Operations.QueueView queue : operations.queues()) {
        names.add(put(server, "Queue", queue.name(), new QueueBean(operations, queue.name())));
      }
      names.add(put(server, "Pool", "cpu", new PoolBean(app.meterRegistry())));
    } catch (JMException e) {
      throw new IllegalStateException("cannot register the application's MBeans", e);
    }
    return () -> {
      for (ObjectName name : names) {
        try {
          if (server.isRegistered(name)) {
            server.unregisterMBean(name);
          }
        } catch (JMException e) {
          // gone already
        }
      }
    };
  }

  /** The object name of the bean of {@code type} named {@code name}. */
  public static ObjectName name(String type, String name) {
    try {
      return new ObjectName("io.sluice:type=" + type + ",name=" + ObjectName.quote(name));
    } catch (JMException e) {
      throw new IllegalArgumentException("no object name for " + type + " " + name, e);
    }
  }

  private static ObjectName put(MBeanServer server, String type, String name, Object bean)
      throws JMException {
    ObjectName objectName = name(type, name);
    if (server.isRegistered(objectName)) {
      server.unregisterMBean(objectName);
    }
    server.registerMBean(bean, objectName);
    return objectName;
  }

  private record FlowBean(Operations operations, String name) implements FlowMXBean {
    private Operations.FlowView view() {
      return operations.flow(name).orElseThrow();
    }

    @Override
    public String getName() {
      return name;
    }

    @Override
    public String getStrategy() {
      return view().strategy();
    }

    @Override
    public boolean isStopped() {
      return view().stopped();
    }

    @Override
    public int getInFlight() {
      return view().inFlight();
    }

    @Override
    public long getCompleted() {
      return view().completed();
    }

    @Override
    public long getFailed() {
      return view().failed();
    }

    @Override
    public long getRefused() {
      return view().refused();
    }

    @Override
    public long getDiscarded() {
      return view().discarded();
    }

    @Override
    public boolean stop() {
      return operations.stopFlow(name);
    }

    @Override
    public boolean start() {
      return operations.startFlow(name);
    }
  }

  private record QueueBean(Operations operations, String name) implements QueueMXBean {
    private Operations.QueueView view() {
      return operations.queue(name).orElseThrow();
    }

    @Override
    public String getName() {
      return name;
    }

    @Override
    public String getFlow() {
      return view().flow();
    }

    @Override
    public long getDepth() {
      return view().depth();
    }

    @Override
    public int getInFlight() {
      return view().inFlight();
    }

    @Override
    public long getDeadLetters() {
      return view().deadLetters();
    }

    @Override
    public List<String> deadLetters(int max) {
      return operations.deadLetters(name, max).stream()
          .map(
              dead ->
                  dead.id()
                      + ", "
                      + dead.deliveries()
                      + " deliveries, "
                      + dead.reason()
                      + ": "
                      + dead.payload())
          .toList();
    }

    @Override
    public boolean requeueDeadLetter(long id) {
      return operations.requeueDeadLetter(name, id);
    }

    @Override
    public boolean dropDeadLetter(long id) {
      return operations.dropDeadLetter(name, id);
    }
  }

  private record PoolBean(MeterRegistry registry) implements PoolMXBean {
    @Override
    public double getActive() {
      return gauge("sluice.pool.active");
    }

    @Override
    public double getQueued() {
      return gauge("sluice.pool.queued");
    }

    @Override
    public double getLimit() {
      return gauge("sluice.pool.limit");
    }

    @Override
    public double getCompleted() {
      FunctionCounter counter =
          registry.find("sluice.pool.completed").tag("pool", "cpu").functionCounter();
      return counter == null ? 0 : counter.count();
    }

    private double gauge(String name) {
      Gauge gauge = registry.find(name).tag("pool", "cpu").gauge();
      return gauge == null ? 0 : gauge.value();
    }
  }
}
