package io.sluice.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The {@code sluice} command as a child process, on this test's classpath (so test components are
 * loadable), with its output in a log file.
 */
final class SluiceProcess implements AutoCloseable {

  private final Process process;
  private final Path log;

  private SluiceProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  static SluiceProcess start(Path workDir, String... args) throws IOException {
    return start(workDir, (Path) null, args);
  }

  /**
   * As {@link #start(Path, String...)}, with {@code environment} added to this process's
   * environment: the one way to give a child process variables a test cannot set on itself.
   */
  static SluiceProcess start(Path workDir, Map<String, String> environment, String... args)
      throws IOException {
    return start(workDir, null, environment, System.getProperty("java.class.path"), args);
  }

  /**
   * As {@link #start(Path, Map, String...)}, without the test classes on the class path: the
   * command logs as it does for users ({@link LogConfigurator}), not as {@code logback-test.xml}
   * says, and no test component is loadable.
   */
  static SluiceProcess startAsShipped(Path workDir, Map<String, String> environment, String... args)
      throws IOException {
    String classPath =
        Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(entry -> !Path.of(entry).endsWith("test-classes"))
            .collect(Collectors.joining(File.pathSeparator));
    return start(workDir, null, environment, classPath, args);
  }

  /** As {@link #start(Path, String...)}, its standard input read from {@code stdin} when given. */
  static SluiceProcess start(Path workDir, Path stdin, String... args) throws IOException {
    return start(workDir, stdin, Map.of(), System.getProperty("java.class.path"), args);
  }

  private static SluiceProcess start(
      Path workDir, Path stdin, Map<String, String> environment, String classPath, String... args)
      throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command =
        new ArrayList<>(
            List.of(
                java,
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                classPath,
                Main.class.getName()));
    command.addAll(List.of(args));
    Path log = workDir.resolve("sluice.log");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    if (stdin != null) {
      builder.redirectInput(stdin.toFile());
    }
    builder.environment().putAll(environment);
    Process process = builder.start();
    return new SluiceProcess(process, log);
  }

  /** Sends SIGTERM. */
  void terminate() {
    process.destroy();
  }

  /** Waits for the exit code; fails when the process did not exit in time. */
  int awaitExit(long seconds) throws InterruptedException, IOException {
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("sluice did not exit within " + seconds + " s; its log:\n" + log());
    }
    return process.exitValue();
  }

  /** The process id. */
  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  String log() throws IOException {
    return Files.exists(log) ? Files.readString(log) : "";
  }

  /**
   * Sends SIGKILL and waits for the process to be gone, so that what it held (the store's lock, its
   * port) is free when this returns.
   */
  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("sluice did not die within 30 s of SIGKILL");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
