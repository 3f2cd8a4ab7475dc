package io.sluice.jobs;

import io.sluice.core.app.Jmx;
import io.sluice.jobs.spi.JobInfo;
import io.sluice.jobs.spi.JobState;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.NodeLease;
import java.lang.management.ManagementFactory;
import java.util.Optional;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * A job executor node as an MXBean ({@code io.sluice:type=JobNode,name=<node id>}): its lease, and
 * the retry of an incident, as {@code sluice jobs retry} does.
 */
public final class JobNodeJmx {

  private JobNodeJmx() {}

  /** A node's figures and operations. */
  public interface JobNodeMXBean {
    /** The node's id. */
    String getNodeId();

    /** Whether it holds its lease now (a node without one takes no job). */
    boolean isHoldingLease();

    /** Its lease's epoch (it grows each time the node registers again); -1 before it started. */
    long getLeaseEpoch();

    /**
     * Makes incident {@code id} wait again, due now, with {@code retries} retries: what happened,
     * in words; nothing changes when the job is not an incident (completed meanwhile, or waiting).
     */
    String retryIncident(long id, int retries);
  }

  /** Registers {@code node}; closing the result unregisters it. */
  public static AutoCloseable register(JobExecutor node) {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName name = Jmx.name("JobNode", node.nodeId());
    try {
      if (server.isRegistered(name)) {
        server.unregisterMBean(name);
      }
      server.registerMBean(new Bean(node, node.store()), name);
    } catch (JMException e) {
      throw new IllegalStateException("cannot register the job node's MBean", e);
    }
    return () -> {
      if (server.isRegistered(name)) {
        server.unregisterMBean(name);
      }
    };
  }

  private record Bean(JobExecutor node, JobStore store) implements JobNodeMXBean {
    @Override
    public String getNodeId() {
      return node.nodeId();
    }

    @Override
    public boolean isHoldingLease() {
      return node.holdsLease();
    }

    @Override
    public long getLeaseEpoch() {
      NodeLease lease = node.lease();
      return lease == null ? -1 : lease.epoch();
    }

    @Override
    public String retryIncident(long id, int retries) {
      if (retries < 0) {
        throw new IllegalArgumentException("retries must not be negative, was " + retries);
      }
      Optional<JobInfo> job = store.find(id);
      if (job.isEmpty()) {
        return "no unfinished job has id " + id + " (it may have completed meanwhile)";
      }
      if (!(job.get().state() instanceof JobState.Incident)) {
        return "job " + id + " is not an incident; nothing changed";
      }
      return store.retry(id, retries)
          ? "job "
              + id
              + " ("
              + job.get().type()
              + ") waits again, due now, with "
              + retries
              + " retries"
          : "job " + id + " is no longer an incident; nothing changed";
    }
  }
}
