package io.sluice.cli;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.batch.BatchInstances;
import io.sluice.batch.BatchJmx;
import io.sluice.batch.BatchLauncher;
import io.sluice.batch.config.BatchConfig;
import io.sluice.config.ConfigLoader;
import io.sluice.config.Configuration;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.app.Application;
import io.sluice.core.app.Jmx;
import io.sluice.core.app.Operations;
import io.sluice.core.health.HealthContributor;
import io.sluice.jobs.JobExecutor;
import io.sluice.jobs.JobNodeJmx;
import io.sluice.jobs.config.JobsConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice run}: starts the flows of a configuration, and a job executor node when it declares
 * job handlers, and runs them until SIGTERM or SIGINT, then stops gracefully: the node first, then
 * the flows (sources first, messages in flight get the shutdown timeout).
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    header = "Runs the flows (and job node) of a configuration until SIGTERM or Ctrl+C.",
    description = {
      "Runs the flows of a configuration until SIGTERM or SIGINT (Ctrl+C), then stops "
          + "gracefully: sources stop, messages in flight finish within sluice.shutdownTimeout.",
      "With job handlers under sluice.jobs, a job executor node runs too, on the store of "
          + "sluice.store; it stops first, its running jobs finishing within "
          + "sluice.jobs.shutdownTimeout.",
      "Batch jobs (batch:) do not run here: sluice batch run runs one.",
      "Placeholders ($${NAME}, $${env:NAME}, $${file:path}, ...) are resolved from "
          + "--property, --properties files, system properties and the environment; a "
          + "$${secret:...} value is masked in the log, in errors and on /metrics."
    })
final class RunCommand implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger("sluice");

  @Parameters(paramLabel = "CONFIG", description = "The YAML configuration file.")
  Path config;

  @Mixin ComponentClasspath classpath;

  @Mixin PlaceholderOptions placeholders;

  @Option(
      names = "--management-port",
      paramLabel = "PORT",
      description =
          "Serve GET /metrics (Prometheus), GET /health, the API under /api/ and the console"
              + " (a page for the browser) at / on this port; 0 picks a free one.")
  Integer managementPort;

  @Option(
      names = "--management-host",
      defaultValue = "127.0.0.1",
      paramLabel = "HOST",
      description = "The address the management port binds to (default ${DEFAULT-VALUE}).")
  String managementHost;

  @Option(
      names = "--management-token-file",
      paramLabel = "FILE",
      description =
          "Require Authorization: Bearer TOKEN on the management port (all but /health), the"
              + " token read from FILE; or set SLUICE_MANAGEMENT_TOKEN. At least 16 characters.")
  Path managementTokenFile;

  @Option(
      names = "--management-allow-unauthenticated",
      description =
          "Allow the management port on a non-loopback --management-host without a token.")
  boolean managementAllowUnauthenticated;

  @Override
  public Integer call() throws Exception {
    ManagementAccess access =
        managementPort == null
            ? ManagementAccess.OPEN
            : ManagementAccess.of(
                managementHost,
                managementTokenFile,
                managementAllowUnauthenticated,
                System.getenv());
    PrometheusMeterRegistry registry = ManagementServer.registry();
    Configuration configuration =
        ConfigLoader.read(config, classpath.loader(), placeholders.sources());
    Application app = configuration.application().meterRegistry(registry).build();
    List<String> batchJobs = configuration.section(BatchConfig.class).names();
    if (app.flows().isEmpty()
        && !configuration.section(JobsConfig.class).hasHandlers()
        && !batchJobs.isEmpty()) {
      throw new ConfigurationException(
          ConfigProblem.of(
              "flows",
              null,
              "is empty, and so are the job handlers: there is nothing for sluice run to run."
                  + " Batch jobs run with sluice batch run "
                  + config
                  + " --job "
                  + batchJobs.getFirst()));
    }
    ShutdownSignal signal = ShutdownSignal.install();
    ManagementServer management =
        managementPort == null
            ? null
            : ManagementServer.start(managementHost, managementPort, registry, access);
    AutoCloseable beans = null;
    AutoCloseable nodeBean = null;
    AutoCloseable batchBean = null;
    AutoCloseable discovery = null;
    try {
      // Batch runs on a shared store claim their blocks under the job node's lease (one lease per
      // process); a batch-execute before the node is up waits for it. Without handlers, under a
      // lease of their own with the sluice.jobs settings.
      JobsConfig jobsConfig = configuration.section(JobsConfig.class);
      java.util.concurrent.CompletableFuture<JobExecutor> node =
          new java.util.concurrent.CompletableFuture<>();
      configuration
          .section(BatchConfig.class)
          .launcher()
          .bind(
              app,
              () -> {
                JobExecutor started = node.join();
                return started == null ? null : started.leaseHolder();
              },
              jobsConfig::executorConfig);
      app.start();
      JobExecutor jobs;
      try {
        jobs = startJobNode(app, jobsConfig);
      } catch (RuntimeException e) {
        node.completeExceptionally(e);
        throw e;
      }
      node.complete(jobs);
      if (!batchJobs.isEmpty()) {
        // On a shared store, this node works on the instances of its batch jobs that a flow of
        // another node started.
        configuration.section(BatchConfig.class).launcher().joinOthers(Duration.ofSeconds(1));
      }
      beans = Jmx.register(app);
      nodeBean = jobs == null ? null : JobNodeJmx.register(jobs);
      batchBean =
          batchJobs.isEmpty() || !app.storage().durable()
              ? null
              : BatchJmx.register(() -> BatchInstances.of(app.storage()));
      if (management != null) {
        List<HealthContributor> parts = new ArrayList<>(app.healthContributors());
        if (jobs != null) {
          parts.add(jobs);
        }
        // The console's jobs and batch instances: those of the application's store, whether or
        // not this process runs a node or a batch (a memory store keeps neither).
        boolean durable = app.storage().durable();
        management.ready(
            parts,
            new Operations(app),
            durable
                ? configuration.section(JobsConfig.class).store(app.storage(), app.storedValues())
                : null,
            // Through the application's own storage: the page reads them every second.
            durable ? () -> BatchInstances.of(app.storage()) : null,
            configuration.section(BatchConfig.class).launcher());
        // sluice jobs, finding the embedded store held by this process, asks the API instead.
        discovery =
            ManagementDiscovery.publish(app.storageConfig(), managementHost, management.port());
      }
      LOG.info(
          "Sluice {} is running {} flow(s){} from {}; stop it with Ctrl+C or SIGTERM",
          VersionProvider.version(),
          app.flows().size(),
          jobs == null ? "" : " and job node " + jobs.nodeId(),
          config);
      if (!batchJobs.isEmpty()) {
        LOG.info(
            "Batch job(s) {} run when a flow's batch-execute starts them, or with sluice batch"
                + " run {} --job NAME",
            batchJobs,
            config);
      }
      if (management != null) {
        LOG.info("Metrics at http://{}:{}/metrics ({})", managementHost, management.port(), access);
      }
      return awaitSignalAndStop(
          app, jobs, configuration.section(BatchConfig.class).launcher(), signal);
    } finally {
      closeQuietly(discovery);
      closeQuietly(batchBean);
      closeQuietly(nodeBean);
      closeQuietly(beans);
      if (management != null) {
        management.close();
      }
    }
  }

  /**
   * Starts the job node of {@code jobs} on the application's store, after the flows its handlers
   * send to have started; null when no job type has a handler. Stops the application when the node
   * cannot start (the store cannot be reached).
   */
  private static void closeQuietly(AutoCloseable beans) {
    if (beans != null) {
      try {
        beans.close();
      } catch (Exception e) {
        LOG.debug("Could not let go of {}", beans, e);
      }
    }
  }

  private static JobExecutor startJobNode(Application app, JobsConfig jobs) {
    if (!jobs.hasHandlers()) {
      return null;
    }
    LOG.info("Job handlers: {}", jobs.handlers());
    try {
      JobExecutor executor = jobs.newExecutor(app);
      executor.start();
      return executor;
    } catch (RuntimeException e) {
      app.stop();
      throw e;
    }
  }

  private int awaitSignalAndStop(
      Application app, JobExecutor jobs, BatchLauncher batches, ShutdownSignal signal)
      throws InterruptedException {
    String received = signal.await();
    LOG.info(
        "{} received: stopping; messages in flight get up to {} to finish",
        received,
        app.shutdownTimeout());
    // Batch instances a flow started run on the application's store: they stop (resumable) while
    // it is still open, and before the job node, whose lease their blocks are claimed under.
    if (!batches.stopAll(app.shutdownTimeout())) {
      LOG.warn(
          "A batch instance had not stopped after {}; the next start of its job resumes it",
          app.shutdownTimeout());
    }
    if (jobs != null) {
      // The node stops before the flows. A running job is a message in a flow (JobHandler.flow),
      // and a stopping application refuses new messages: stopped first, the flows would fail the
      // jobs still to start and spend their retries. Stopped first, the node claims nothing more,
      // lets its running jobs finish (within sluice.jobs.shutdownTimeout), hands back what it
      // held but did not start, to other nodes or the next run, and leaves the store while it is
      // still open: the application closes it when it stops.
      jobs.close();
    }
    if (app.stop()) {
      LOG.info("Stopped cleanly");
      return ExitCodes.OK;
    }
    LOG.warn(
        "Stopped with messages unfinished after {}; their sources still hold them",
        app.shutdownTimeout());
    return ExitCodes.FAILED;
  }
}
