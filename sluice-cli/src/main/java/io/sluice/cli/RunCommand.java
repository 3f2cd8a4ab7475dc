package io.sluice.cli;

import io.sluice.config.ConfigLoader;
import io.sluice.core.Application;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice run}: starts the flows of a configuration and runs them until SIGTERM or SIGINT,
 * then stops gracefully (sources first, messages in flight get the shutdown timeout).
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the flows of a configuration until SIGTERM or SIGINT (Ctrl+C), then stops",
      "gracefully: sources stop, messages in flight finish within sluice.shutdownTimeout."
    })
final class RunCommand implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger("sluice");

  @Parameters(paramLabel = "CONFIG", description = "The YAML configuration file.")
  Path config;

  @Mixin ComponentClasspath classpath;

  @Override
  public Integer call() throws Exception {
    Application app = ConfigLoader.load(config, classpath.loader()).build();
    ShutdownSignal signal = ShutdownSignal.install();
    app.start();
    LOG.info("Sluice {} is running {} flow(s) from {}; stop it with Ctrl+C or SIGTERM",
        VersionProvider.version(), app.flows().size(), config);
    String received = signal.await();
    LOG.info("{} received: stopping; messages in flight get up to {} to finish", received,
        app.shutdownTimeout());
    if (app.stop()) {
      LOG.info("Stopped cleanly");
      return ExitCodes.OK;
    }
    LOG.warn("Stopped with messages unfinished after {}; their sources still hold them",
        app.shutdownTimeout());
    return ExitCodes.FAILED;
  }
}
