package io.sluice.cli;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code sluice validate} accepts, {@code sluice run} runs: each file here validated (or
 * failed with a stack trace) before, and made {@code run} fail or misbehave. Now each exits 2 with
 * a line naming the key, the value and the rule.
 */
class ValidateRefusesWhatRunCannotRunTest {

  @TempDir Path work;

  @Test
  void aNulInADirectoryIsAnErrorAtItsLine() throws Exception {
    CliRun run =
        CliRun.validate(
            work,
            """
            flows:
              - name: copy
                source:
                  file: { directory: "in\\0side" }
            """);
    run.assertRefused(
        "app.yaml:4:15: flows[0].source.file.directory: value 'in\\0side' is not a valid path");
  }

  @Test
  void aNulInTheStoresDirectoryIsAnErrorAtItsLine() throws Exception {
    CliRun run =
        CliRun.validate(
            work,
            """
            sluice:
              store: { dataDir: "da\\0ta" }
            flows: []
            """);
    run.assertRefused("app.yaml:2:12: sluice.store.dataDir: value 'da\\0ta' is not a valid path");
  }

  @Test
  void aGlobThatDoesNotCompileIsAnErrorAtItsLine() throws Exception {
    CliRun run =
        CliRun.validate(
            work,
            """
            flows:
              - name: copy
                source:
                  file: { directory: in, pattern: "[a-" }
            """);
    run.assertRefused(
        "app.yaml:4:30: flows[0].source.file.pattern: value '[a-' is not a valid glob");
  }

  @Test
  void twoListenersOnOnePortWithDifferentSettingsAreRefused() throws Exception {
    CliRun run =
        CliRun.validate(
            work,
            """
            flows:
              - name: a
                source:
                  http-listener: { port: 18081, maxConnections: 10 }
              - name: b
                source:
                  http-listener: { port: 18081, maxConnections: 20 }
            """);
    run.assertRefused(
        "app.yaml:7:7: flows[1].source.http-listener: value '0.0.0.0:18081'",
        "the listener at flows[0].source.http-listener (app.yaml:4:7)",
        "maxConnections (10 there, 20 here)");
  }

  @Test
  void aWildcardAndASpecificAddressOnOnePortAreRefused() throws Exception {
    CliRun run =
        CliRun.validate(
            work,
            """
            flows:
              - name: a
                source:
                  http-listener: { port: 18082 }
              - name: b
                source:
                  http-listener: { host: 127.0.0.1, port: 18082 }
            """);
    run.assertRefused(
        "app.yaml:7:7: flows[1].source.http-listener: value '127.0.0.1:18082'",
        "binds 0.0.0.0:18082");
  }
}
