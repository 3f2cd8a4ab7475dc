package io.sluice.cli;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A number or duration that {@code sluice validate} accepted and {@code run} then misread: a
 * concurrency whose sum with the prefetch overflowed (the node never claimed), a request timeout
 * whose nanoseconds overflowed (every request got an empty reply). Each is refused at its line.
 */
class NumbersBeyondTheirBoundsAreRefusedTest {

  @TempDir Path work;

  @Test
  void aConcurrencyThatWouldOverflowIsRefused() throws Exception {
    CliRun run =
        CliRun.validate(
            work,
            """
            sluice:
              jobs:
                concurrency: 2147483647
                handlers:
                  invoice: { flow: invoice }
            flows:
              - name: invoice
            """);
    run.assertRefused(
        "app.yaml:3:5: sluice.jobs.concurrency: value '2147483647' must be at most 10000");
  }

  @Test
  void aRequestTimeoutOfMillionsOfDaysIsRefused() throws Exception {
    CliRun run =
        CliRun.validate(
            work,
            """
            flows:
              - name: api
                source:
                  http-listener: { port: 18080, requestTimeout: P99999999999D }
            """);
    run.assertRefused(
        "app.yaml:4:37: flows[0].source.http-listener.requestTimeout: value 'P99999999999D' must be at most 24h");
  }

  @Test
  void aDurationTooLongForMillisecondsIsRefusedWithoutAStackTrace() throws Exception {
    CliRun run =
        CliRun.validate(
            work,
            """
            sluice:
              jobs:
                leaseDuration: P99999999999D
                retryBackoff: 99999999999999999999h
            flows: []
            """);
    run.assertRefused(
        "app.yaml:3:5: sluice.jobs.leaseDuration: value 'P99999999999D' must be at most 24h",
        "app.yaml:4:5: sluice.jobs.retryBackoff: value '99999999999999999999h' must be a duration");
  }
}
