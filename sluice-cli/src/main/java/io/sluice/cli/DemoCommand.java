package io.sluice.cli;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.config.ConfigLoader;
import io.sluice.core.app.Application;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code sluice demo}: a self-contained run that ends by itself and needs no server: a batch job
 * over a generated million orders on the embedded store ({@link BatchDemo}), or, with {@code
 * --flows}, the three strategies at work on generated order files.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    header = "Runs a self-contained demo over generated data and stops by itself.",
    description = {
      "Generates a CSV file of orders (a few malformed on purpose) and runs a batch job "
          + "over it on the embedded store, durably, with a progress bar; prints the result and "
          + "the throughput. With --flows: generates order files and runs three flows over them "
          + "(staged, auto, synchronous) until every file is priced and written. Needs no server."
    })
final class DemoCommand implements Callable<Integer> {

  @Option(
      names = "--flows",
      description = "Run the flows demo (order files through three flows) instead.")
  boolean flows;

  @Option(
      names = "--records",
      defaultValue = "1000000",
      description = "Batch demo: order lines to generate (default ${DEFAULT-VALUE}).")
  long records;

  @Option(
      names = "--progress",
      defaultValue = "auto",
      paramLabel = "STYLE",
      description = "Batch demo: bar, lines, none or auto (a bar on a terminal).")
  ProgressDisplay.Style progress;

  @Option(
      names = "--files",
      defaultValue = "2000",
      description = "Flows demo: order files to generate (default ${DEFAULT-VALUE}).")
  int files;

  @Option(names = "--keep", description = "Keep the work directory instead of deleting it.")
  boolean keep;

  @Option(
      names = "--timeout-seconds",
      defaultValue = "120",
      description = "Give up after this long (default ${DEFAULT-VALUE}).")
  int timeoutSeconds;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (records < 0) {
      throw new ParameterException(spec.commandLine(), "--records must not be negative");
    }
    PrintWriter out = spec.commandLine().getOut();
    Path work = Files.createTempDirectory("sluice-demo-");
    int exit;
    try {
      exit = flows ? flows(work, out) : BatchDemo.run(work, records, timeoutSeconds, progress, out);
    } finally {
      if (keep) {
        out.printf("Work directory kept: %s%n", work);
      } else {
        delete(work);
      }
      out.flush();
    }
    return exit;
  }

  private int flows(Path work, PrintWriter out) throws Exception {
    Path in = Files.createDirectories(work.resolve("in"));
    Path written = work.resolve("out");
    generateOrders(in, files);
    Path config = work.resolve("demo.yaml");
    try (InputStream yaml = DemoCommand.class.getResourceAsStream("demo.yaml")) {
      Files.copy(yaml, config);
    }
    out.printf("Sluice demo: %d order files in %s%n", files, in);
    out.println(
        "  orders    (staged)      file source -> logger -> vm-request pricing -> file-write out/");
    out.println(
        "  pricing   (auto)        vm-listener -> pricing component (CPU_INTENSIVE) -> set-variable");
    out.println("  heartbeat (synchronous) scheduler every 1s -> logger");
    out.flush();

    Application app = ConfigLoader.load(config).build();
    long start = System.nanoTime();
    app.start();
    long deadline = start + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    long done = 0;
    long lastShown = -1;
    while (done < files && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(200); // a progress display, not a test: polling is what it does
      done = count(written);
      if (done != lastShown) {
        out.printf("  priced and written: %d/%d%n", done, files);
        out.flush();
        lastShown = done;
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    boolean drained = app.stop();
    MeterRegistry meters = app.meterRegistry();
    out.printf(
        "%nDone: %d of %d files in %.2f s (%.0f files/s), stopped %s%n",
        done, files, seconds, done / seconds, drained ? "cleanly" : "with messages unfinished");
    for (String flow : new String[] {"orders", "pricing", "heartbeat"}) {
      out.printf(
          "  %-9s completed %5.0f  failed %3.0f  refused %3.0f%n",
          flow,
          counter(meters, flow, "completed"),
          counter(meters, flow, "failed"),
          counter(meters, flow, "refused"));
    }
    return done == files && drained ? ExitCodes.OK : ExitCodes.FAILED;
  }

  private static double counter(MeterRegistry meters, String flow, String outcome) {
    Counter counter =
        meters.find("sluice.flow.messages").tag("flow", flow).tag("outcome", outcome).counter();
    return counter == null ? 0 : counter.count();
  }

  static void generateOrders(Path directory, int count) throws IOException {
    Random random = new Random(42);
    String[] items = {"widget", "gadget", "sprocket", "flange", "grommet"};
    for (int i = 1; i <= count; i++) {
      StringBuilder csv = new StringBuilder("item,quantity,unitPrice\n");
      for (int line = 0; line < 1 + random.nextInt(20); line++) {
        csv.append(items[random.nextInt(items.length)])
            .append(',')
            .append(1 + random.nextInt(50))
            .append(',')
            .append(random.nextInt(10_000) / 100.0)
            .append('\n');
      }
      Files.writeString(directory.resolve(String.format("order-%05d.csv", i)), csv);
    }
  }

  private static long count(Path directory) throws IOException {
    if (!Files.isDirectory(directory)) {
      return 0;
    }
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.filter(p -> p.getFileName().toString().endsWith(".csv")).count();
    }
  }

  private static void delete(Path directory) throws IOException {
    try (Stream<Path> walk = Files.walk(directory)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
