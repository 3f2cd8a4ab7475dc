package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** sluice jobs create --file on PostgreSQL: all the lines in one transaction, or none. */
class JobsAreCreatedFromJsonLinesOnPostgresTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  @TempDir Path work;

  @Test
  void aFileIsCreatedWholeAndAFileWithABadLineNotAtAll() throws Exception {
    Path config = PostgresConfig.write(work, DB);
    List<String> good = new ArrayList<>();
    List<String> bad = new ArrayList<>();
    for (int i = 1; i <= 2000; i++) {
      good.add(
          "{\"type\": \"send\", \"payload\": \"INV-" + i + "\", \"priority\": " + i % 10 + "}");
      bad.add(
          i == 1500
              ? "{\"type\": \"send\", \"payload\": \"x\", \"retries\": -1}"
              : "{\"type\": \"audit\", \"payload\": " + i + "}");
    }
    Path goodFile = Files.write(work.resolve("good.jsonl"), good);
    Path badFile = Files.write(work.resolve("bad.jsonl"), bad);
    String file = config.toString();

    CliRun created = CliRun.of("jobs", "create", file, "--file", goodFile.toString());
    CliRun refused = CliRun.of("jobs", "create", file, "--file", badFile.toString());

    assertThat(created.exitCode()).as(created.err()).isZero();
    assertThat(created.out())
        .startsWith("created 2000 job(s) from " + goodFile + " in one transaction: ids ");
    assertThat(refused.exitCode()).isEqualTo(ExitCodes.INVALID);
    assertThat(refused.err())
        .contains(badFile + " has 1 bad line(s); no job was created:")
        .contains(badFile + ":1500: maxRetries must not be negative, was -1");
    assertThat(CliRun.of("jobs", "stats", file).out())
        .containsPattern("\\nsend +2000 ")
        .doesNotContain("audit");
  }
}
