package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.ConfigProblem;
import java.util.List;
import org.junit.jupiter.api.Test;

class SemanticErrorsAreReportedWithTheirLineTest {

  private static final String BROKEN =
      """
      flows:
        - name: first
          source:
            scheduler: { cron: "0 */5 * * *" }
          processors:
            - set-payload: { value: "#[payload.(]" }
            - component: { class: com.acme.Missing }
            - expression: { expression: "payload +" }
          errorHandler:
            - onErrorContinue: { when: "payload ==" }
        - name: first
          source:
            scheduler: { cron: "0 0 12 * * ?", timeZone: Mars/Olympus }
          processors:
            - logger: { message: "#[never closed" }
      """;

  private static ConfigProblem at(String path) {
    return Configs.problems(BROKEN).stream()
        .filter(p -> p.path().equals(path))
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("no problem at " + path + " in " + Configs.problems(BROKEN)));
  }

  @Test
  void allOfThemComeInOneReport() {
    List<ConfigProblem> problems = Configs.problems(BROKEN);
    assertThat(problems)
        .extracting(ConfigProblem::source)
        .containsExactly(
            "app.yaml:4:20",
            "app.yaml:6:24",
            "app.yaml:7:22",
            "app.yaml:8:23",
            "app.yaml:10:28",
            "app.yaml:11:5",
            "app.yaml:13:42",
            "app.yaml:15:19");
  }

  @Test
  void anExpressionThatDoesNotCompileNamesItsText() {
    assertThat(at("flows[0].processors[0].set-payload.value"))
        .satisfies(p -> assertThat(p.value()).isEqualTo("payload.("))
        .satisfies(p -> assertThat(p.rule()).startsWith("does not compile"));
    assertThat(at("flows[0].processors[2].expression.expression").value()).isEqualTo("payload +");
    assertThat(at("flows[0].errorHandler[0].onErrorContinue.when").value()).isEqualTo("payload ==");
    assertThat(at("flows[1].processors[0].logger.message").rule()).contains("never closed");
  }

  @Test
  void anInvalidCronSaysWhatACronLooksLike() {
    ConfigProblem cron = at("flows[0].source.scheduler.cron");
    assertThat(cron.value()).isEqualTo("0 */5 * * *");
    assertThat(cron.rule())
        .contains("not a valid cron expression")
        .contains("Quartz")
        .contains("0 */5 * * * ?");
    assertThat(at("flows[1].source.scheduler.timeZone").value()).isEqualTo("Mars/Olympus");
  }

  @Test
  void aComponentThatCannotBeLoadedNamesTheClassAndTheClasspath() {
    ConfigProblem component = at("flows[0].processors[1].component.class");
    assertThat(component.value()).isEqualTo("com.acme.Missing");
    assertThat(component.rule())
        .contains("could not be loaded")
        .contains("searched the classpath")
        .contains("test-classes");
  }

  @Test
  void aDuplicateFlowNamePointsToTheFirst() {
    ConfigProblem duplicate = at("flows[1].name");
    assertThat(duplicate.value()).isEqualTo("first");
    assertThat(duplicate.rule()).contains("must be unique").contains("app.yaml:2:5");
  }

  @Test
  void schemaAndSemanticErrorsAreReportedTogether() {
    List<ConfigProblem> problems =
        Configs.problems(
            """
        flows:
          - name: a
            strategy: { synchronous: { receiver: { maxThreadsActive: 0 } } }
            processors:
              - set-payload: { value: "#[payload.(]" }
        """);
    assertThat(problems)
        .extracting(ConfigProblem::path)
        .containsExactly(
            "flows[0].strategy.synchronous.receiver.maxThreadsActive",
            "flows[0].processors[0].set-payload.value");
  }

  @Test
  void aRuleTheCoreEnforcesIsLocatedAtTheKeyItNames() {
    assertThat(
            Configs.problems(
                """
        flows:
          - name: files
            source:
              file: { directory: in, afterRead: MOVE }
        """))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.path()).isEqualTo("flows[0].source.file.moveTo");
              assertThat(p.rule()).isEqualTo("is required when afterRead is MOVE");
              assertThat(p.source()).isEqualTo("app.yaml:4:7");
            });
    assertThat(
            Configs.problems(
                """
        flows:
          - name: auto
            strategy:
              auto: { initialLimit: 50, maxLimit: 10 }
        """))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.path()).isEqualTo("flows[0].strategy.auto.maxLimit");
              assertThat(p.source()).isEqualTo("app.yaml:4:33");
            });
  }
}
