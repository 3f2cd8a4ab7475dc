package io.sluice.cli;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.config.ConfigLoader;
import io.sluice.core.Application;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice run}: starts the flows of a configuration and runs them until SIGTERM or SIGINT,
 * then stops gracefully (sources first, messages in flight get the shutdown timeout).
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    header = "Runs the flows of a configuration until SIGTERM or Ctrl+C.",
    description = {
      "Runs the flows of a configuration until SIGTERM or SIGINT (Ctrl+C), then stops",
      "gracefully: sources stop, messages in flight finish within sluice.shutdownTimeout."
    })
final class RunCommand implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger("sluice");

  @Parameters(paramLabel = "CONFIG", description = "The YAML configuration file.")
  Path config;

  @Mixin ComponentClasspath classpath;

  @Option(
      names = "--management-port",
      paramLabel = "PORT",
      description =
          "Serve GET /metrics (Prometheus) and GET /health on this port; 0 picks a free one.")
  Integer managementPort;

  @Option(
      names = "--management-host",
      defaultValue = "127.0.0.1",
      paramLabel = "HOST",
      description = "The address the management port binds to (default ${DEFAULT-VALUE}).")
  String managementHost;

  @Override
  public Integer call() throws Exception {
    PrometheusMeterRegistry registry = ManagementServer.registry();
    Application app = ConfigLoader.load(config, classpath.loader()).meterRegistry(registry).build();
    ShutdownSignal signal = ShutdownSignal.install();
    ManagementServer management =
        managementPort == null
            ? null
            : ManagementServer.start(managementHost, managementPort, registry);
    try {
      app.start();
      LOG.info(
          "Sluice {} is running {} flow(s) from {}; stop it with Ctrl+C or SIGTERM",
          VersionProvider.version(),
          app.flows().size(),
          config);
      if (management != null) {
        LOG.info("Metrics at http://{}:{}/metrics", managementHost, management.port());
      }
      return awaitSignalAndStop(app, signal);
    } finally {
      if (management != null) {
        management.close();
      }
    }
  }

  private int awaitSignalAndStop(Application app, ShutdownSignal signal)
      throws InterruptedException {
    String received = signal.await();
    LOG.info(
        "{} received: stopping; messages in flight get up to {} to finish",
        received,
        app.shutdownTimeout());
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
