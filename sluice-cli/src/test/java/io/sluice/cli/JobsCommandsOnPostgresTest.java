package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The sluice jobs commands on a PostgreSQL store, the one executor nodes share. */
class JobsCommandsOnPostgresTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  @TempDir Path work;

  @Test
  void jobsAreCreatedListedCountedAndRetriedOnPostgres() throws Exception {
    Path config = PostgresConfig.write(work, DB);
    String file = config.toString();

    CliRun created =
        CliRun.of("jobs", "create", file, "--type", "send", "--payload", "a", "--priority", "9");
    assertThat(created.exitCode()).as(created.err()).isZero();
    long incident = ConfiguredStores.incident(config, "send", "boom");

    assertThat(CliRun.of("jobs", "list", file).out())
        .containsPattern("\\n1 +send +waiting +9 ")
        .containsPattern("\\n" + incident + " +send +incident +0 +1 +0 +boom")
        .endsWith("2 job(s)" + System.lineSeparator());
    assertThat(CliRun.of("jobs", "stats", file).out())
        .containsPattern("\\nsend +1 +1 +0 +1 +[0-9]+s");
    assertThat(CliRun.of("jobs", "retry", file, String.valueOf(incident)).out())
        .contains("waits again, due now, with 3 retries");
    assertThat(CliRun.of("jobs", "incidents", file).out())
        .isEqualTo("0 incident(s)" + System.lineSeparator());
  }
}
