package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.ConfigProblem;
import java.util.List;
import org.junit.jupiter.api.Test;

class FormatProblemsAreReportedWithTheirLineTest {

  private static final String BROKEN =
      """
      flows:
        - name: f
          processors:
            - read: { format: TOML }
            - read: { mimeType: text/plain, separator: ";;" }
            - read: { format: XML, streaming: true }
            - write: { pretty: true }
            - write: { format: CSV, columns: [a, a] }
            - transform:
                template:
                  id: "#[payload.(]"
                  lines:
                    - ok
                    - "#[unclosed"
            - transform: { target: x }
      """;

  private static List<String> problems() {
    return Configs.problems(BROKEN).stream().map(ConfigProblem::toString).toList();
  }

  @Test
  void everyProblemIsReportedAtOnceWithItsLine() {
    List<ConfigProblem> problems = Configs.problems(BROKEN);

    assertThat(problems)
        .extracting(ConfigProblem::source)
        .containsExactly(
            "app.yaml:4:17",
            "app.yaml:5:17",
            "app.yaml:5:39",
            "app.yaml:6:30",
            "app.yaml:7:9",
            "app.yaml:8:31",
            "app.yaml:11:13",
            "app.yaml:14:17",
            "app.yaml:15:9");
  }

  @Test
  void eachNamesItsPathAndRule() {
    assertThat(problems())
        .anySatisfy(p -> assertThat(p).contains("read.format", "TOML", "must be one of"))
        .anySatisfy(
            p -> assertThat(p).contains("read.mimeType", "must name JSON, XML, CSV or YAML"))
        .anySatisfy(p -> assertThat(p).contains("read.streaming", "is for JSON"))
        .anySatisfy(p -> assertThat(p).contains("write", "format"))
        .anySatisfy(p -> assertThat(p).contains("transform.template.id", "does not compile"))
        .anySatisfy(p -> assertThat(p).contains("transform.template.lines[1]", "never closed"))
        .anySatisfy(p -> assertThat(p).contains("transform", "template"));
  }
}
