package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/** Runs the command in-process and keeps what it printed, secrets masked as the command does. */
record CliRun(int exitCode, String out, String err) {

  static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine command = Main.commandLine();
    command.setOut(MaskingWriter.printWriter(out));
    command.setErr(MaskingWriter.printWriter(err));
    int code = command.execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }

  /** Writes {@code yaml} to {@code app.yaml} in {@code directory} and validates it. */
  static CliRun validate(Path directory, String yaml) throws IOException {
    Path config = directory.resolve("app.yaml");
    Files.writeString(config, yaml);
    return of("validate", config.toString());
  }

  /** Asserts an invalid configuration: exit 2, every text in the errors, no stack trace. */
  void assertRefused(String... expected) {
    assertThat(exitCode).as(out + err).isEqualTo(ExitCodes.INVALID);
    assertThat(err).doesNotContain("\tat ").doesNotContain("unexpected error");
    for (String text : expected) {
      assertThat(err).contains(text);
    }
  }
}
