package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/find-java.sh, which ./sluice and ./mvnw source, run by a real shell against fake JDK
 * directories, with no java on PATH.
 */
class LaunchersFindAJdkTest {

  @TempDir Path temp;
  Path tools;
  Path jdks;

  @BeforeEach
  void shellToolsWithoutJava() throws IOException {
    tools = Files.createDirectories(temp.resolve("tools"));
    for (String tool : new String[] {"sed", "head", "dirname", "readlink"}) {
      for (String dir : new String[] {"/usr/bin", "/bin"}) {
        if (Files.isExecutable(Path.of(dir, tool))) {
          executable(tools.resolve(tool), "#!/bin/sh\nexec " + Path.of(dir, tool) + " \"$@\"\n");
          break;
        }
      }
    }
    jdks = Files.createDirectories(temp.resolve("jdks"));
  }

  private void fakeJdk(String name, int version) throws IOException {
    Path bin = Files.createDirectories(jdks.resolve(name).resolve("bin"));
    String script = "#!/bin/sh\necho '    java.specification.version = " + version + "' >&2\n";
    for (String tool : new String[] {"java", "javac"}) {
      executable(bin.resolve(tool), script);
    }
  }

  /**
   * A JDK whose release file gives its version and whose java, if run, leaves a mark and prints
   * nothing: finding a JDK must not start one.
   */
  private Path jdkWithRelease(String name, String javaVersion) throws IOException {
    Path home = jdks.resolve(name);
    Path bin = Files.createDirectories(home.resolve("bin"));
    Files.writeString(
        home.resolve("release"), "IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"" + javaVersion + "\"\n");
    for (String tool : new String[] {"java", "javac"}) {
      executable(bin.resolve(tool), "#!/bin/sh\n: > " + home.resolve("was-run") + "\nexit 1\n");
    }
    return home;
  }

  private static void executable(Path file, String script) throws IOException {
    Files.writeString(file, script, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private Result find() throws IOException, InterruptedException {
    ProcessBuilder shell =
        new ProcessBuilder(
            "/bin/sh", "-c", ". ../bin/find-java.sh && sluice_find_java && echo \"$JAVA_HOME\"");
    Map<String, String> env = shell.environment();
    env.clear();
    env.put("PATH", tools.toString());
    env.put("SLUICE_JDK_DIRS", jdks.toString());
    shell.redirectErrorStream(true);
    Process process = shell.start();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return new Result(
        process.exitValue(),
        new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
  }

  record Result(int exitCode, String output) {}

  @Test
  void theNewestJdkOfAtLeast21IsChosen() throws Exception {
    fakeJdk("jdk-17", 17);
    fakeJdk("jdk-21", 21);
    fakeJdk("jdk-25", 25);
    Result result = find();
    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output().strip()).isEqualTo(jdks.resolve("jdk-25").toString());
  }

  @Test
  void theReleaseFileGivesTheVersionWithoutStartingAJvm() throws Exception {
    Path jdk8 = jdkWithRelease("jdk-8", "1.8.0_452");
    Path jdk25 = jdkWithRelease("jdk-25", "25.0.3");
    Path jdk21 = jdkWithRelease("jdk-21", "21.0.9");
    Result result = find();
    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output().strip()).isEqualTo(jdk25.toString());
    for (Path jdk : new Path[] {jdk8, jdk21, jdk25}) {
      assertThat(jdk.resolve("was-run")).as("%s/bin/java was run", jdk).doesNotExist();
    }
  }

  @Test
  void onlyOlderJdksGiveAClearMessageAndNoSuccess() throws Exception {
    fakeJdk("jdk-17", 17);
    Result result = find();
    assertThat(result.exitCode()).isNotZero();
    assertThat(result.output())
        .contains("Sluice needs a JDK 21 or newer")
        .contains(jdks.resolve("jdk-17") + " (Java 17)")
        .contains("apt-get install openjdk-21-jdk");
  }

  @Test
  void noJdkAtAllSaysWhatToInstall() throws Exception {
    Result result = find();
    assertThat(result.exitCode()).isNotZero();
    assertThat(result.output()).contains("none was found").contains("JAVA_HOME");
  }
}
