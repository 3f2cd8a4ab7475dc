package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.ConfigProblem;
import java.util.List;
import org.junit.jupiter.api.Test;

class InvalidYamlReportsTheLineTest {

  @Test
  void aBadIndentIsReportedAtItsLine() {
    List<ConfigProblem> problems =
        Configs.problems(
            """
        flows:
          - name: a
           processors: []
        """);
    assertThat(problems)
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.source()).isEqualTo("app.yaml:3:4");
              assertThat(p.rule())
                  .startsWith("is not valid YAML")
                  .contains("(line 2)")
                  .doesNotContain("^");
            });
  }

  @Test
  void anUnclosedFlowMappingIsReported() {
    assertThat(Configs.problems("flows:\n  - name: a\n    processors: [ { logger: {} \n"))
        .singleElement()
        .satisfies(p -> assertThat(p.rule()).contains("while parsing a flow"));
  }

  @Test
  void aDuplicateKeyIsReportedAtTheSecondOne() {
    List<ConfigProblem> problems =
        Configs.problems(
            """
        flows:
          - name: a
            name: b
        """);
    assertThat(problems)
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.path()).isEqualTo("flows[0].name");
              assertThat(p.source()).isEqualTo("app.yaml:3:5");
              assertThat(p.rule()).contains("duplicate key").contains("app.yaml:2:5");
            });
  }

  @Test
  void anEmptyFileIsReported() {
    assertThat(Configs.problems("# nothing here\n"))
        .singleElement()
        .satisfies(p -> assertThat(p.rule()).contains("is empty"));
  }
}
