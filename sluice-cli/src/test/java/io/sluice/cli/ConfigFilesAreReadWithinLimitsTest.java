package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file {@code sluice validate} cannot read is refused with where and why: a byte that is not
 * UTF-8 at its line, column and byte offset (it was "check that the file exists"), a file of
 * megabytes at once (a 10 MB line took minutes in the YAML parser).
 */
class ConfigFilesAreReadWithinLimitsTest {

  @TempDir Path work;

  @Test
  void aFileThatIsNotUtf8IsReportedWithItsLineAndByteOffset() throws Exception {
    Path config = work.resolve("latin1.yaml");
    Files.write(config, "flows:\n  - name: caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
    CliRun run = CliRun.of("validate", config.toString());
    run.assertRefused("latin1.yaml:2:14:", "byte 0xE9 at byte offset 20");
    assertThat(run.err()).doesNotContain("check that the file exists");
  }

  @Test
  void aRawNulIsReportedAtItsLineNotAtTheStart() throws Exception {
    Path config = work.resolve("nul.yaml");
    Files.writeString(config, "flows:\n  - name: a\u0000b\n");
    CliRun run = CliRun.of("validate", config.toString());
    run.assertRefused("nul.yaml:2:12: (file): holds the control character U+0000");
  }

  @Test
  void aHugeOneLineFileIsRefusedAtOnce() throws Exception {
    Path config = work.resolve("huge.yaml");
    Files.writeString(
        config,
        "flows: [{name: f, processors: [{logger: {message: \""
            + "x".repeat(10_000_000)
            + "\"}}]}]\n");
    long start = System.nanoTime();
    CliRun run = CliRun.of("validate", config.toString());
    long millis = (System.nanoTime() - start) / 1_000_000;
    run.assertRefused("huge.yaml: (file)", "larger than");
    assertThat(millis).as("time to refuse, ms").isLessThan(5_000);
  }
}
