package io.sluice.bench.batch;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.batch.BatchEngine;
import io.sluice.bench.CpuTime;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What one E1 run looked like over time, sampled every {@code periodMillis} on a thread of its own:
 * records processed, {@code auto}'s adaptive limit and the calls it runs and queues (the {@code
 * sluice.stage} meters of the step's flow; absent under a fixed profile), the calls it saw
 * throttled, the 429s the service sent, and how busy the machine's CPUs were. The evidence for why
 * {@code auto} lands where it does.
 */
final class RunTrace implements AutoCloseable {

  static final String HEADER =
      "job,profile,run,t_s,processed,limit,active,queued,auto_throttled,service_calls,"
          + "service_429,machine_busy_pct";

  /** One sample; {@code limit}, {@code active}, {@code queued}: -1 when the flow has none. */
  record Sample(
      double seconds,
      long processed,
      double limit,
      double active,
      double queued,
      double autoThrottled,
      long serviceCalls,
      long service429,
      double machineBusyPercent) {}

  private final MeterRegistry registry;
  private final String flow;
  private final String stage;
  private final BatchEngine.Execution execution;
  private final ServiceProcess service;
  private final long periodMillis;
  private final List<Sample> samples = new ArrayList<>();
  private final Thread thread;
  private final long started = System.nanoTime();
  private volatile boolean running = true;

  private RunTrace(
      MeterRegistry registry,
      String flow,
      String stage,
      BatchEngine.Execution execution,
      ServiceProcess service,
      long periodMillis) {
    this.registry = registry;
    this.flow = flow;
    this.stage = stage;
    this.execution = execution;
    this.service = service;
    this.periodMillis = periodMillis;
    this.thread = Thread.ofPlatform().name("e1-trace").daemon(true).start(this::sample);
  }

  /**
   * Starts sampling {@code execution}, whose step runs as {@code flow} with {@code profile} (auto's
   * meters are its stage {@code auto}; a fixed profile's, its stage {@code receiver}, the pool that
   * carries each record); {@code service} may be null.
   */
  static RunTrace start(
      MeterRegistry registry,
      String flow,
      String profile,
      BatchEngine.Execution execution,
      ServiceProcess service,
      long periodMillis) {
    String stage = profile.startsWith("auto") ? "auto" : "receiver";
    return new RunTrace(registry, flow, stage, execution, service, periodMillis);
  }

  private void sample() {
    long machineBefore = CpuTime.ofMachine();
    long before = System.nanoTime();
    ServiceProcess.Counts first = counts();
    int cores = Runtime.getRuntime().availableProcessors();
    while (running && first != null) {
      try {
        Thread.sleep(periodMillis);
      } catch (InterruptedException e) {
        return;
      }
      ServiceProcess.Counts now = counts();
      if (now == null) {
        return; // Closed while asking the service: the run is over, and this sample is not.
      }
      long nanos = System.nanoTime();
      long machine = CpuTime.ofMachine();
      ServiceProcess.Counts calls = now.since(first);
      double busy = 100.0 * (machine - machineBefore) / ((nanos - before) * (double) cores);
      machineBefore = machine;
      before = nanos;
      Sample sample =
          new Sample(
              (nanos - started) / 1e9,
              execution.progress().processed(),
              gauge("sluice.stage.limit"),
              gauge("sluice.stage.active"),
              gauge("sluice.stage.queued"),
              counter("sluice.stage.throttled"),
              service == null ? 0 : calls.latencyCalls() + calls.cappedCalls(),
              calls.capped429(),
              busy);
      synchronized (samples) {
        samples.add(sample);
      }
    }
  }

  /** The service's counts (none without a service); null when interrupted, as {@link #close}s. */
  private ServiceProcess.Counts counts() {
    if (service == null) {
      return ServiceProcess.Counts.NONE;
    }
    try {
      return service.counts();
    } catch (IOException e) {
      throw new IllegalStateException("the service stopped answering /counts", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private double gauge(String name) {
    Gauge gauge = registry.find(name).tags("flow", flow, "stage", stage).gauge();
    return gauge == null ? -1 : gauge.value();
  }

  private double counter(String name) {
    FunctionCounter counter =
        registry.find(name).tags("flow", flow, "stage", stage).functionCounter();
    return counter == null ? -1 : counter.count();
  }

  /** Stops sampling and waits for the sampler. */
  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.interrupt();
    thread.join();
  }

  /** The samples taken. */
  List<Sample> samples() {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  /** The limit's lowest, median and highest sample (a fixed profile's is its threads). */
  String limitSummary() {
    double[] limits =
        samples().stream().mapToDouble(Sample::limit).filter(l -> l >= 0).sorted().toArray();
    if (limits.length == 0) {
      return ",,";
    }
    return String.format(
        Locale.ROOT,
        "%.0f,%.0f,%.0f",
        limits[0],
        limits[limits.length / 2],
        limits[limits.length - 1]);
  }

  /** The 429s the service sent during the second half of the run (after any convergence). */
  long late429() {
    List<Sample> all = samples();
    if (all.isEmpty()) {
      return 0;
    }
    double half = all.getLast().seconds() / 2;
    long atHalf =
        all.stream().filter(s -> s.seconds() <= half).mapToLong(Sample::service429).max().orElse(0);
    return all.getLast().service429() - atHalf;
  }

  /** The samples as CSV lines after {@code labels} (job, profile, run). */
  List<String> csvLines(String labels) {
    return samples().stream()
        .map(
            s ->
                labels
                    + ","
                    + String.join(
                        ",",
                        Arrays.asList(
                            String.format(Locale.ROOT, "%.2f", s.seconds()),
                            Long.toString(s.processed()),
                            String.format(Locale.ROOT, "%.0f", s.limit()),
                            String.format(Locale.ROOT, "%.0f", s.active()),
                            String.format(Locale.ROOT, "%.0f", s.queued()),
                            String.format(Locale.ROOT, "%.0f", s.autoThrottled()),
                            Long.toString(s.serviceCalls()),
                            Long.toString(s.service429()),
                            String.format(Locale.ROOT, "%.1f", s.machineBusyPercent()))))
        .toList();
  }
}
