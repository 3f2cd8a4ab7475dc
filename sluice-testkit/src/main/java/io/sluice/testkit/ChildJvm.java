package io.sluice.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command that starts {@code main} in a JVM of its own, for tests that kill, freeze or cluster
 * processes: this JVM's java and class path, and the flags Sluice's serializers and SQLite need
 * (only those the running JDK knows).
 */
public final class ChildJvm {

  private ChildJvm() {}

  /** {@code java [flags] -cp <this class path> main args...}. */
  public static List<String> command(Class<?> main, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--add-opens=java.base/java.lang.invoke=ALL-UNNAMED");
    command.add("--enable-native-access=ALL-UNNAMED");
    if (Runtime.version().feature() >= 23) {
      // Kryo and Fory use sun.misc.Unsafe; the JDK warns from 24 on unless allowed.
      command.add("--sun-misc-unsafe-memory-access=allow");
    }
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(List.of(args));
    return command;
  }
}
