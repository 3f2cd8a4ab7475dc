package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.sluice.batch.BatchJob;
import io.sluice.batch.config.BatchConfig;
import io.sluice.core.ConfigProblem;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A batch job's {@code output} in YAML: its CSV file (relative to the configuration file) and
 * columns reach the job; a column named twice, a missing key and a step named 'output' are reported
 * at their lines.
 */
class ABatchOutputIsMappedFromYamlTest {

  @Test
  void theCsvFileAndItsColumnsReachTheJob() {
    BatchJob job =
        Configs.read(
                """
                batch:
                  - name: orders
                    input: { csv: in/orders.csv }
                    output: { csv: out/orders.csv, columns: [id, name, total] }
                    steps: [ { name: copy } ]
                """)
            .section(BatchConfig.class)
            .jobs()
            .getFirst();

    assertThat(job.output().file()).isEqualTo(Configs.BASE.resolve("out/orders.csv"));
    assertThat(job.output().header()).isEqualTo("id,name,total\n");
    assertThat(job.output().line(Map.of("id", 1, "name", "ADA", "total", "2.38", "x", "y")))
        .isEqualTo("1,ADA,2.38\n");
  }

  @Test
  void aBrokenOutputIsReportedAtItsLine() {
    assertThat(
            Configs.problems(
                """
                batch:
                  - name: orders
                    input: { csv: in.csv }
                    output: { csv: out.csv, columns: [id, id] }
                    steps: [ { name: copy } ]
                  - name: other
                    input: { csv: in.csv }
                    output: { columns: [id] }
                    steps: [ { name: copy } ]
                """))
        .extracting(ConfigProblem::source, ConfigProblem::path, ConfigProblem::rule)
        .containsExactly(
            tuple(
                "app.yaml:4:29",
                "batch[0].output.columns",
                "must have only unique items in the array"),
            tuple("app.yaml:8:5", "batch[1].output.csv", "is required"));
  }

  @Test
  void aStepNamedOutputIsRefusedInAJobWithAnOutput() {
    assertThat(
            Configs.problems(
                """
                batch:
                  - name: orders
                    input: { csv: in.csv }
                    output: { csv: out.csv, columns: [id] }
                    steps: [ { name: output } ]
                """))
        .extracting(ConfigProblem::path, ConfigProblem::rule)
        .containsExactly(
            tuple(
                "batch[0].steps.output",
                "a job with an output may not name a step 'output': records the output cannot"
                    + " write fail there"));
  }
}
