package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ExhaustedAction;
import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code threading:} declares threading profiles and processing strategies once, by name, for
 * several flows to name, and the default profile and strategy of every flow (Mule's
 * default-threading-profile and named processing strategies). A name that is not declared is
 * refused at its line, naming the key, the value and the names that are.
 */
class NamedProfilesAndStrategiesAreSharedByFlowsTest {

  private static final ThreadingProfile SMALL =
      ThreadingProfile.builder()
          .maxThreadsActive(2)
          .maxThreadsIdle(1)
          .maxQueue(10)
          .exhaustedAction(ExhaustedAction.DISCARD_OLDEST)
          .build();

  private static Flow flow(Application application, String name) {
    return application.flows().stream()
        .filter(f -> f.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aNamedProfileIsUsedByTwoFlowsAndRunsEachOnItsOwnPool() throws Exception {
    String yaml =
        """
        threading:
          profiles:
            small: { maxThreadsActive: 2, maxThreadsIdle: 1, maxQueue: 10, exhaustedAction: DISCARD_OLDEST }
        flows:
          - name: a
            strategy: { synchronous: { receiver: small } }
            processors: [ { set-payload: { value: "a" } } ]
          - name: b
            strategy: { staged: { flow: small } }
            processors: [ { set-payload: { value: "b" } } ]
        """;
    try (Application application = Configs.build(yaml)) {
      assertThat(flow(application, "a").strategy())
          .isEqualTo(new ProcessingStrategy.Synchronous(SMALL));
      assertThat(flow(application, "b").strategy())
          .isEqualTo(
              new ProcessingStrategy.Staged(
                  ThreadingProfile.DEFAULT, SMALL, ThreadingProfile.DEFAULT));

      application.start();
      assertThat(application.send("a", Message.of("x")).get(10, TimeUnit.SECONDS).payload())
          .isEqualTo("a");
      assertThat(application.send("b", Message.of("x")).get(10, TimeUnit.SECONDS).payload())
          .isEqualTo("b");
      assertThat(limit(application, "a", "receiver")).isEqualTo(2);
      assertThat(limit(application, "b", "flow")).isEqualTo(2);
      assertThat(limit(application, "b", "receiver")).isEqualTo(16);
    }
  }

  @Test
  void theDefaultProfileReachesTheAsyncScopesPoolUnlessTheStrategyNamesOne() throws Exception {
    try (Application application =
        Configs.build(
            """
            threading:
              defaultProfile: { maxThreadsActive: 3 }
              profiles:
                wide: { maxThreadsActive: 12 }
            flows:
              - name: plain
                strategy: synchronous
                processors:
                  - async: { processors: [ { logger: {} } ] }
              - name: staged
                strategy: { staged: { async: wide } }
                processors:
                  - async: { processors: [ { logger: {} } ] }
              - name: inline
                strategy: { synchronous: { async: { maxThreadsActive: 5 } } }
            """)) {
      application.start();
      assertThat(application.send("plain", Message.of("x")).get(10, TimeUnit.SECONDS).payload())
          .isEqualTo("x");
      assertThat(limit(application, "plain", "async")).isEqualTo(3);
      assertThat(limit(application, "staged", "async")).isEqualTo(12);
      assertThat(limit(application, "inline", "async")).isEqualTo(5);
    }
  }

  private static double limit(Application application, String flow, String stage) {
    return application
        .meterRegistry()
        .get("sluice.stage.limit")
        .tag("flow", flow)
        .tag("stage", stage)
        .gauge()
        .value();
  }

  @Test
  void aNamedStrategyIsUsedByTwoFlowsAndMayNameProfiles() {
    Application application =
        Configs.build(
            """
        threading:
          profiles:
            small: { maxThreadsActive: 2 }
          strategies:
            orders: { staged: { receiver: small, flow: { maxThreadsActive: 8 } } }
        flows:
          - { name: a, strategy: orders }
          - { name: b, strategy: orders }
          - { name: c, strategy: synchronous }
        """);
    ProcessingStrategy orders =
        new ProcessingStrategy.Staged(
            ThreadingProfile.builder().maxThreadsActive(2).build(),
            ThreadingProfile.builder().maxThreadsActive(8).build(),
            ThreadingProfile.DEFAULT);
    assertThat(flow(application, "a").strategy()).isEqualTo(orders);
    assertThat(flow(application, "b").strategy()).isEqualTo(orders);
    assertThat(flow(application, "c").strategy())
        .isEqualTo(new ProcessingStrategy.Synchronous(ThreadingProfile.DEFAULT));
  }

  @Test
  void theDefaultProfileIsWhereEveryProfileStartsAndTheDefaultStrategyIsEveryBareFlows() {
    Application application =
        Configs.build(
            """
        threading:
          defaultProfile: { idleTtl: 5m, maxThreadsIdle: 1 }
          defaultStrategy: synchronous
          profiles:
            small: { maxThreadsActive: 2 }
        flows:
          - name: bare
          - name: partly
            strategy: { staged: { flow: { maxThreadsActive: 4 }, dispatcher: small } }
          - name: own
            strategy: auto
        """);
    ThreadingProfile byDefault =
        ThreadingProfile.builder().idleTtl(Duration.ofMinutes(5)).maxThreadsIdle(1).build();
    assertThat(flow(application, "bare").strategy())
        .as("the async scopes' pool starts from the default profile too")
        .isEqualTo(new ProcessingStrategy.Synchronous(byDefault, byDefault));
    assertThat(flow(application, "partly").strategy())
        .isEqualTo(
            new ProcessingStrategy.Staged(
                byDefault,
                byDefault.toBuilder().maxThreadsActive(4).build(),
                byDefault.toBuilder().maxThreadsActive(2).build(),
                false,
                null,
                byDefault));
    assertThat(flow(application, "own").strategy()).isEqualTo(ProcessingStrategy.Auto.DEFAULT);
  }

  @Test
  void theDefaultProfileMayNameADeclaredOne() {
    Application application =
        Configs.build(
            """
        threading:
          defaultProfile: base
          profiles:
            base: { maxThreadsActive: 4, exhaustedAction: REJECT }
            wide: { maxThreadsActive: 32 }
        flows:
          - { name: a, strategy: { synchronous: {} } }
          - { name: b, strategy: { synchronous: { receiver: wide } } }
        """);
    ThreadingProfile base =
        ThreadingProfile.builder()
            .maxThreadsActive(4)
            .exhaustedAction(ExhaustedAction.REJECT)
            .build();
    assertThat(flow(application, "a").strategy())
        .isEqualTo(new ProcessingStrategy.Synchronous(base, base));
    assertThat(flow(application, "b").strategy())
        .isEqualTo(
            new ProcessingStrategy.Synchronous(
                base.toBuilder().maxThreadsActive(32).build(), base));
  }

  @Test
  void aProfileNameThatIsNotDeclaredIsRefusedAtItsLineListingTheDeclaredOnes() {
    List<ConfigProblem> problems =
        Configs.problems(
            """
        threading:
          profiles:
            small: {}
            large: {}
        flows:
          - name: a
            strategy: { synchronous: { receiver: tiny } }
        """);
    assertThat(problems)
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.path()).isEqualTo("flows[0].strategy.synchronous.receiver");
              assertThat(p.value()).isEqualTo("tiny");
              assertThat(p.source()).isEqualTo("app.yaml:7:32");
              assertThat(p.rule())
                  .isEqualTo(
                      "names no threading profile; the ones declared under threading.profiles"
                          + " are small, large");
            });
  }

  @Test
  void aStrategyNameThatIsNotDeclaredIsRefusedListingTheBuiltInAndDeclaredOnes() {
    List<ConfigProblem> problems =
        Configs.problems(
            """
        threading:
          strategies:
            orders: { synchronous: {} }
        flows:
          - name: a
            strategy: bulk
        """);
    assertThat(problems)
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.path()).isEqualTo("flows[0].strategy");
              assertThat(p.value()).isEqualTo("bulk");
              assertThat(p.source()).isEqualTo("app.yaml:6:5");
              assertThat(p.rule())
                  .contains("names no processing strategy")
                  .contains("synchronous, staged and auto")
                  .contains("threading.strategies are orders");
            });
  }

  @Test
  void aDefaultProfileNamingNothingIsRefusedAndNothingElseIsBlamedForIt() {
    List<ConfigProblem> problems =
        Configs.problems(
            """
        threading:
          defaultProfile: base
        flows:
          - { name: a, strategy: { synchronous: {} } }
        """);
    assertThat(problems)
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.path()).isEqualTo("threading.defaultProfile");
              assertThat(p.source()).isEqualTo("app.yaml:2:3");
              assertThat(p.rule()).contains("none is declared under threading.profiles");
            });
  }

  @Test
  void aBrokenNamedProfileIsReportedOnceWhereItIsDeclared() {
    List<ConfigProblem> problems =
        Configs.problems(
            """
        threading:
          profiles:
            small: { maxThreadsActive: 2, maxThreadsIdle: 3 }
        flows:
          - { name: a, strategy: { synchronous: { receiver: small } } }
          - { name: b, strategy: { synchronous: { receiver: small } } }
        """);
    assertThat(problems)
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.path()).isEqualTo("threading.profiles.small.maxThreadsIdle");
              assertThat(p.source()).isEqualTo("app.yaml:3:35");
              assertThat(p.rule()).contains("at most maxThreadsActive (2)");
            });
  }

  @Test
  void aStrategyCannotBeDeclaredUnderABuiltInName() {
    assertThat(
            Configs.rule(
                """
        threading:
          strategies:
            auto: { synchronous: {} }
        flows: []
        """,
                "threading.strategies.auto"))
        .contains("built-in strategy");
  }

  @Test
  void discardOldestWithoutAQueueIsRefusedAtItsKey() {
    assertThat(
            Configs.rule(
                """
        flows:
          - name: a
            strategy: { synchronous: { receiver: { maxQueue: 0, exhaustedAction: DISCARD_OLDEST } } }
        """,
                "flows[0].strategy.synchronous.receiver.exhaustedAction"))
        .contains("needs a queue");
  }
}
