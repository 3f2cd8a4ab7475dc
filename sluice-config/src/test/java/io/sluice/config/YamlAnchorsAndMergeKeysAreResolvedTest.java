package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ExhaustedAction;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import io.sluice.core.app.Application;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Anchors ({@code &name}), aliases ({@code *name}) and merge keys ({@code <<}) mean what YAML says
 * (Jackson's parser alone read an alias as the text of its anchor's name). A problem inside an
 * aliased value points to where the anchor wrote it; a key holding an alias keeps its own line.
 */
class YamlAnchorsAndMergeKeysAreResolvedTest {

  @Test
  void anAliasStandsForTheValueItsAnchorMarkedMapsAndScalarsAlike() {
    Application application =
        Configs.build(
            """
        flows:
          - name: a
            strategy:
              synchronous:
                receiver: &small { maxThreadsActive: 2, idleTtl: &ttl 5m }
          - name: b
            strategy: { staged: { flow: *small, dispatcher: { idleTtl: *ttl } } }
        """);
    ThreadingProfile small =
        ThreadingProfile.builder().maxThreadsActive(2).idleTtl(Duration.ofMinutes(5)).build();
    assertThat(application.flows().get(0).strategy())
        .isEqualTo(new ProcessingStrategy.Synchronous(small));
    assertThat(application.flows().get(1).strategy())
        .isEqualTo(
            new ProcessingStrategy.Staged(
                ThreadingProfile.DEFAULT,
                small,
                ThreadingProfile.builder().idleTtl(Duration.ofMinutes(5)).build()));
  }

  @Test
  void aMergeKeyAddsTheKeysOfTheMapsItNamesTheMapsOwnKeysWinningThenEarlierMaps() {
    Application application =
        Configs.build(
            """
        threading:
          profiles:
            base: &base { maxThreadsActive: 2, maxQueue: 10, idleTtl: 5m }
            waiting: &waiting { exhaustedAction: WAIT, maxQueue: 20 }
            merged: { maxThreadsActive: 4, <<: [ *waiting, *base ] }
            one:
              <<: *base
              exhaustedAction: REJECT
        flows:
          - { name: a, strategy: { synchronous: { receiver: merged } } }
          - { name: b, strategy: { synchronous: { receiver: one } } }
        """);
    assertThat(application.flows().get(0).strategy())
        .isEqualTo(
            new ProcessingStrategy.Synchronous(
                ThreadingProfile.builder()
                    .maxThreadsActive(4)
                    .maxQueue(20)
                    .idleTtl(Duration.ofMinutes(5))
                    .exhaustedAction(ExhaustedAction.WAIT)
                    .build()));
    assertThat(application.flows().get(1).strategy())
        .isEqualTo(
            new ProcessingStrategy.Synchronous(
                ThreadingProfile.builder()
                    .maxThreadsActive(2)
                    .maxQueue(10)
                    .idleTtl(Duration.ofMinutes(5))
                    .exhaustedAction(ExhaustedAction.REJECT)
                    .build()));
  }

  @Test
  void aProblemInsideAnAliasedValuePointsToTheAnchorAndOneAtTheAliasToTheAlias() {
    List<ConfigProblem> problems =
        Configs.problems(
            """
        flows:
          - name: a
            strategy: &strategy bulk
            processors:
              - logger: &bad { level: LOUD }
          - name: b
            strategy: *strategy
            processors:
              - logger: *bad
        """);
    assertThat(problems)
        .extracting(ConfigProblem::path, ConfigProblem::source)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("flows[0].strategy", "app.yaml:3:5"),
            org.assertj.core.groups.Tuple.tuple(
                "flows[0].processors[0].logger.level", "app.yaml:5:24"),
            org.assertj.core.groups.Tuple.tuple("flows[1].strategy", "app.yaml:7:5"),
            org.assertj.core.groups.Tuple.tuple(
                "flows[1].processors[0].logger.level", "app.yaml:5:24"));
  }

  @Test
  void anAliasOfNoAnchorIsAYamlErrorAtItsLineNamingTheAnchorsDefined() {
    assertThat(
            Configs.problems(
                """
        flows:
          - name: a
            strategy: { synchronous: { receiver: &small { maxThreadsActive: 2 } } }
          - name: b
            strategy: { synchronous: { receiver: *smal } }
        """))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.path()).isEqualTo("flows[1].strategy.synchronous.receiver");
              assertThat(p.value()).isEqualTo("*smal");
              assertThat(p.source()).isEqualTo("app.yaml:5:42");
              assertThat(p.rule())
                  .contains("is an alias of no anchor")
                  .contains("the anchors defined before it are small");
            });
  }

  @Test
  void anAliasInsideTheValueItsAnchorMarksIsRefused() {
    assertThat(Configs.problems("flows: &flows [ *flows ]\n"))
        .singleElement()
        .satisfies(p -> assertThat(p.rule()).contains("contains itself"));
  }

  @Test
  void aQuotedMergeKeyIsAnOrdinaryKey() {
    assertThat(
            Configs.rule(
                """
        flows:
          - name: a
            strategy: { synchronous: { receiver: { "<<": { maxQueue: 1 } } } }
        """,
                "flows[0].strategy.synchronous.receiver.<<"))
        .contains("is not a known key");
  }

  @Test
  void aMergeKeyOfNoMapIsAYamlError() {
    assertThat(
            Configs.problems(
                """
        flows:
          - name: a
            strategy: { synchronous: { receiver: { <<: 5 } } }
        """))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.path()).isEqualTo("flows[0].strategy.synchronous.receiver.<<");
              assertThat(p.source()).isEqualTo("app.yaml:3:44");
              assertThat(p.rule()).contains("must be a map or a list of maps");
            });
  }

  @Test
  void aliasesOfAliasesMultiplyingPastTheLimitAreRefusedBeforeTheyAreBuilt() {
    StringBuilder yaml = new StringBuilder("flows: []\nbatch:\n  - &l0 [");
    yaml.append(IntStream.range(0, 10).mapToObj(i -> "1").collect(Collectors.joining(", ")));
    yaml.append("]\n");
    for (int level = 1; level <= 6; level++) {
      String alias = "*l" + (level - 1);
      yaml.append("  - &l")
          .append(level)
          .append(" [")
          .append(IntStream.range(0, 10).mapToObj(i -> alias).collect(Collectors.joining(", ")))
          .append("]\n");
    }
    assertThat(Configs.problems(yaml.toString()))
        .singleElement()
        .satisfies(p -> assertThat(p.rule()).contains("more than 100000 values"));
  }
}
