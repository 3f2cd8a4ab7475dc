package io.sluice.cli;

import io.sluice.batch.BatchInstance;
import io.sluice.batch.BatchInstances;
import io.sluice.batch.BatchState;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice batch stop}: asks the process running an instance to stop it. */
@Command(
    name = "stop",
    mixinStandardHelpOptions = true,
    header = "Asks the process running a batch instance to stop it, and waits until it did.",
    description = {
      "Records a stop request on the instance in the store; the process running it (in this "
          + "terminal or another, on this machine or, on PostgreSQL, another node) looks for one "
          + "every quarter of a second, lets its blocks in flight finish their step and stops. "
          + "Waits for that; exits with 1 when the instance ended already, does not exist, or did "
          + "not stop in time (no process may be running it: sluice batch resume goes on with "
          + "it)."
    })
final class BatchStopCommand implements Callable<Integer> {

  private static final long POLL_MILLIS = 100;

  @Mixin ConfiguredStorage store;

  @Parameters(index = "1", paramLabel = "ID", description = "The instance's id.")
  long id;

  @Option(
      names = "--wait-seconds",
      defaultValue = "30",
      paramLabel = "S",
      description = "How long to wait for it to stop; 0 only asks (default ${DEFAULT-VALUE}).")
  int waitSeconds;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    if (waitSeconds < 0) {
      throw new ParameterException(
          spec.commandLine(), "--wait-seconds must not be negative, was " + waitSeconds);
    }
    try (BatchInstances instances = BatchListCommand.instances(store)) {
      Optional<BatchInstance> found = instances.find(id);
      if (found.isEmpty()) {
        return noSuchInstance(spec, id, instances.describe());
      }
      if (!instances.requestStop(id)) {
        return notRunning(instances.find(id).orElse(found.get()));
      }
      PrintWriter out = spec.commandLine().getOut();
      out.printf(
          "asked instance %d (%s) to stop; the process running it stops at its next block%n",
          id, found.get().job());
      out.flush();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(waitSeconds);
      BatchInstance now = found.get();
      while (now.state().resumable() && now.state() != BatchState.STOPPED) {
        if (System.nanoTime() >= deadline) {
          return notStopped(now);
        }
        // Another process changes the row: polling it is what waiting for it is.
        TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
        now = instances.find(id).orElseThrow();
      }
      out.printf(
          Locale.ROOT,
          "instance %d (%s) is %s: %,d loaded, %,d processed, %,d failed%s%n",
          id,
          now.job(),
          now.state(),
          now.loaded(),
          now.processed(),
          now.failed(),
          now.state() == BatchState.STOPPED
              ? "; sluice batch resume " + store.config + " " + id + " goes on with it"
              : "");
      return ExitCodes.OK;
    }
  }

  private int notRunning(BatchInstance instance) {
    if (instance.state() == BatchState.STOPPED) {
      spec.commandLine()
          .getOut()
          .printf(
              "instance %d (%s) is stopped already; sluice batch resume %s %d goes on with it%n",
              id, instance.job(), store.config, id);
      return ExitCodes.OK;
    }
    spec.commandLine()
        .getErr()
        .printf(
            "sluice: instance %d (%s) has ended (%s); there is nothing to stop%n",
            id, instance.job(), instance.state());
    return ExitCodes.FAILED;
  }

  private int notStopped(BatchInstance instance) {
    spec.commandLine()
        .getErr()
        .printf(
            "sluice: instance %d (%s) is still %s after %d s. The request stays until a run of it"
                + " ends or begins; if no process runs it (one killed mid-run leaves it %s),"
                + " there is nothing to stop: sluice batch resume %s %d goes on with it%n",
            id, instance.job(), instance.state(), waitSeconds, instance.state(), store.config, id);
    return ExitCodes.FAILED;
  }

  /** Says that no batch instance has {@code id}; returns the exit code for it. */
  static int noSuchInstance(CommandSpec spec, long id, String store) {
    spec.commandLine()
        .getErr()
        .printf("sluice: no batch instance has id %d in %s; see sluice batch list%n", id, store);
    return ExitCodes.FAILED;
  }
}
