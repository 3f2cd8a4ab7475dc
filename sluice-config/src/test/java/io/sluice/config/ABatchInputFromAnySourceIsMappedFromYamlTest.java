package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.batch.BatchJob;
import io.sluice.batch.config.BatchConfig;
import org.junit.jupiter.api.Test;

/** A batch job's input from any flow source, in YAML, as Java's {@code BatchInput.source}. */
class ABatchInputFromAnySourceIsMappedFromYamlTest {

  private static BatchJob job(String yaml) {
    return Configs.read(yaml).section(BatchConfig.class).jobs().getFirst();
  }

  @Test
  void aFileSourceFeedsTheJobUntilItGoesQuiet() {
    BatchJob job =
        job(
            """
            batch:
              - name: orders
                input:
                  source: { file: { directory: incoming, pattern: "*.json" } }
                  quiet: 30s
                steps: [ { name: load } ]
            """);

    assertThat(job.input().describe())
        .isEqualTo("source file(/etc/sluice/incoming) (ends after PT30S without a message)");
  }

  @Test
  void aQueueListenerFeedsTheJobAndQuietDefaultsToFiveSeconds() {
    BatchJob job =
        job(
            """
            batch:
              - name: events
                input:
                  source: { vm-listener: { queue: events } }
                steps: [ { name: load } ]
            """);

    assertThat(job.input().describe()).endsWith("(ends after PT5S without a message)");
  }

  @Test
  void quietBesideAFileInputIsRefusedWithTheReason() {
    String rule =
        Configs.rule(
            """
            batch:
              - name: orders
                input: { csv: in/orders.csv, quiet: 10s }
                steps: [ { name: load } ]
            """,
            "batch[0].input.quiet");

    assertThat(rule).startsWith("applies only to a source input");
  }

  @Test
  void twoInputsAreRefusedNamingTheKinds() {
    String rule =
        Configs.rule(
            """
            batch:
              - name: orders
                input:
                  csv: in/orders.csv
                  source: { vm-listener: { queue: events } }
                steps: [ { name: load } ]
            """,
            "batch[0].input");

    assertThat(rule)
        .isEqualTo("must hold exactly one of: csv, jsonLines, generator, source, message, query");
  }

  @Test
  void aBrokenSourceIsReportedWhereItIsBroken() {
    String rule =
        Configs.rule(
            """
            batch:
              - name: orders
                input:
                  source: { vm-listener: { consumers: 2 } }
                steps: [ { name: load } ]
            """,
            "batch[0].input.source.vm-listener.queue");

    assertThat(rule).isEqualTo("is required");
  }
}
