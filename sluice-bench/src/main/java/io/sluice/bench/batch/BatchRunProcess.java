package io.sluice.bench.batch;

import io.sluice.bench.CpuTime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One {@code sluice batch run CONFIG} process, started from the CLI's jar as the {@code ./sluice}
 * launcher starts it (the same JVM flags, its class-data archive when it is up to date, C2 kept),
 * without the launcher's look for changed sources (which would build in the middle of a run). Its
 * output goes to a log file, named in any failure. Its CPU time is read every so often while it
 * runs (the last reading is kept: once it has ended its {@code /proc} entry is gone).
 */
final class BatchRunProcess {

  private final String name;
  private final Process process;
  private final Path log;
  private final long startedNanos;
  private final CompletableFuture<Void> ended;
  private volatile long endedNanos;
  private volatile long cpuNanos;

  private BatchRunProcess(String name, Process process, Path log, long startedNanos) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.startedNanos = startedNanos;
    this.ended = process.onExit().thenRun(() -> endedNanos = System.nanoTime());
  }

  /**
   * Starts {@code sluice batch run config --progress none} with {@code properties} as {@code
   * --property NAME=VALUE}; {@code jvmOptions} (may be blank) go before {@code -jar}.
   */
  static BatchRunProcess start(
      String name,
      Path cliJar,
      Path config,
      Map<String, String> properties,
      String jvmOptions,
      Path log)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(launcherFlags(cliJar));
    if (!jvmOptions.isBlank()) {
      command.addAll(Arrays.asList(jvmOptions.trim().split("\\s+")));
    }
    command.addAll(
        List.of(
            "-jar", cliJar.toString(), "batch", "run", config.toString(), "--progress", "none"));
    properties.forEach((key, value) -> command.addAll(List.of("--property", key + "=" + value)));
    Files.createDirectories(log.getParent());
    long started = System.nanoTime();
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.PIPE)
            .start();
    return new BatchRunProcess(name, process, log, started);
  }

  /** Whether the nodes start with the launcher's class-data archive, said in a line. */
  static String describeArchive(Path cliJar) {
    return launcherFlags(cliJar).stream().anyMatch(f -> f.startsWith("-XX:SharedArchiveFile="))
        ? "the nodes map the launcher's class-data archive, as ./sluice does"
        : "the nodes start WITHOUT the launcher's class-data archive (none newer than the jar:"
            + " run ./sluice once after the build to make it), slower than ./sluice starts";
  }

  /** The flags {@code ./sluice} passes (see that script), for a JDK of 24 or more. */
  private static List<String> launcherFlags(Path cliJar) {
    List<String> flags = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED"));
    if (Runtime.version().feature() >= 24) {
      flags.add("--sun-misc-unsafe-memory-access=allow");
      flags.add("--add-opens=java.base/java.lang.invoke=ALL-UNNAMED");
    }
    Path target = cliJar.toAbsolutePath().getParent();
    Path archive = target.resolve("sluice-cli.jsa");
    try {
      if (Files.exists(archive)
          && Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(cliJar)) >= 0) {
        // The launcher's archive, only read: three nodes ending at once must not write it.
        flags.add("-XX:SharedArchiveFile=" + archive);
        flags.add("-Xlog:cds*=off");
      }
    } catch (IOException e) {
      // No archive: the JVM starts without one, as the launcher's would.
    }
    flags.add("-Dsluice.sqlite.nativeCache=" + target.resolve("native"));
    return flags;
  }

  String name() {
    return name;
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** When it started, on {@link System#nanoTime()}. */
  long startedNanos() {
    return startedNanos;
  }

  /** When it was seen to end (0 while it runs). */
  long endedNanos() {
    return endedNanos;
  }

  /** Reads its CPU time, while it runs; the last reading stays once it has ended. */
  void sampleCpu() {
    long now = CpuTime.ofProcess(process.pid());
    if (now > cpuNanos) {
      cpuNanos = now;
    }
  }

  /** Its CPU time at the last reading. */
  long cpuNanos() {
    return cpuNanos;
  }

  /** Waits for it to end within {@code seconds}; its exit code. */
  int await(long seconds) throws InterruptedException {
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      throw failure("did not end within " + seconds + " s");
    }
    ended.join(); // endedNanos is set
    return process.exitValue();
  }

  /** A failure naming this process, what happened, and the end of its log. */
  IllegalStateException failure(String what) {
    String tail;
    try {
      List<String> lines = Files.readAllLines(log);
      tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      tail = "(its log cannot be read: " + e.getMessage() + ")";
    }
    return new IllegalStateException(
        "sluice batch run of "
            + name
            + " "
            + what
            + " (exit "
            + (process.isAlive() ? "-" : process.exitValue())
            + "); its log, "
            + log
            + ", ends:\n"
            + tail);
  }

  /** Kills it when it still runs (after a failure). */
  void kill() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
  }
}
