package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.sluice.config.spi.Durations;
import io.sluice.core.ConfigProblem;
import io.sluice.jobs.Acquisition;
import io.sluice.jobs.ClaimOrder;
import io.sluice.jobs.JobExecutorConfig;
import io.sluice.jobs.config.JobsConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobsAreMappedFromYamlTest {

  @Test
  void everySettingOfTheNodeAndEachHandlerIsRead() {
    JobsConfig jobs =
        Configs.read(
                """
                sluice:
                  jobs:
                    nodeId: node-7
                    concurrency: 8
                    prefetch: 3
                    leaseDuration: 10s
                    heartbeatInterval: 3s
                    safetyPoll: 1m
                    retryBackoff: 500ms
                    maxRetryBackoff: 1h
                    backoffFactor: 1.5
                    depthInterval: 20s
                    shutdownTimeout: PT45S
                    acquisition: optimistic
                    jobsPerCycle: 3
                    maxJobsPerCycle: 48
                    acquisitionBackoff: 50ms
                    maxAcquisitionBackoff: 250ms
                    acquisitionBackoffFactor: 2
                    acquisitionBackoffDecreaseThreshold: 10
                    idleWait: 5s
                    maxIdleWait: 1m
                    idleWaitFactor: 1.5
                    claimOrder: priority
                    priorityAging: 2s
                    history: 48h
                    handlers:
                      send-email: { flow: mailer }
                      billing:monthly: { class: io.sluice.config.RecordingJobHandler }
                flows:
                  - name: mailer
                """)
            .section(JobsConfig.class);

    assertThat(jobs.executorConfig())
        .isEqualTo(
            new JobExecutorConfig(
                "node-7",
                8,
                3,
                Duration.ofSeconds(10),
                Duration.ofSeconds(3),
                Duration.ofMinutes(1),
                Duration.ofMillis(500),
                Duration.ofHours(1),
                1.5,
                Duration.ofSeconds(20),
                Duration.ofSeconds(45),
                Acquisition.OPTIMISTIC,
                3,
                48,
                Duration.ofMillis(50),
                Duration.ofMillis(250),
                2.0,
                10,
                Duration.ofSeconds(5),
                Duration.ofMinutes(1),
                1.5));
    assertThat(jobs.claimOrder()).isEqualTo(ClaimOrder.PRIORITY);
    assertThat(jobs.priorityAging()).isEqualTo(Duration.ofSeconds(2));
    assertThat(jobs.history()).isEqualTo(Duration.ofHours(48));
    assertThat(jobs.hasHandlers()).isTrue();
    assertThat(jobs.handlers())
        .containsExactly(
            Map.entry("billing:monthly", "class io.sluice.config.RecordingJobHandler"),
            Map.entry("send-email", "flow mailer"));
  }

  @Test
  void withoutTheSectionTheNodeHasTheDefaultsAndNoHandler() {
    JobsConfig jobs = Configs.read("flows: [ { name: bare } ]").section(JobsConfig.class);

    assertThat(jobs.hasHandlers()).isFalse();
    assertThat(jobs.claimOrder()).isEqualTo(ClaimOrder.PRIORITY);
    assertThat(jobs.priorityAging()).isEqualTo(Duration.ofSeconds(1));
    assertThat(jobs.history()).isEqualTo(Duration.ofDays(7));
    assertThat(jobs.executorConfig()).isEqualTo(JobExecutorConfig.defaults());
  }

  @Test
  void unsetSettingsKeepTheirDefaultsAndThePrefetchFollowsTheConcurrency() {
    JobExecutorConfig config =
        Configs.read("sluice: { jobs: { concurrency: 40 } }\nflows: [ { name: bare } ]")
            .section(JobsConfig.class)
            .executorConfig();

    assertThat(config.prefetch()).isEqualTo(40);
    assertThat(config.leaseDuration()).isEqualTo(Duration.ofSeconds(6));
  }

  @Test
  void historyOfZeroKeepsNone() {
    JobsConfig jobs =
        Configs.read("sluice: { jobs: { history: 0ms } }\nflows: [ { name: bare } ]")
            .section(JobsConfig.class);

    assertThat(jobs.history()).isZero();
  }

  @Test
  void claimingByDueDateIsAChoiceOfTheSection() {
    JobsConfig jobs =
        Configs.read("sluice: { jobs: { claimOrder: due-date } }\nflows: [ { name: bare } ]")
            .section(JobsConfig.class);

    assertThat(jobs.claimOrder()).isEqualTo(ClaimOrder.DUE_DATE);
  }

  @Test
  void camundasAcquisitionSettingsRefuseBadValuesWithKeyValueRuleAndLine() {
    List<ConfigProblem> problems =
        Configs.problems(
            """
            sluice:
              jobs:
                acquisitionBackoffDecreaseThreshold: 0
                idleWait: 10s
                maxIdleWait: 5s
                idleWaitFactor: 0.5
                claimOrder: by-priority
            flows: [ { name: bare } ]
            """);

    assertThat(problems)
        .extracting(ConfigProblem::source, ConfigProblem::path, p -> String.valueOf(p.value()))
        .containsExactly(
            tuple("app.yaml:3:5", "sluice.jobs.acquisitionBackoffDecreaseThreshold", "0"),
            tuple("app.yaml:5:5", "sluice.jobs.maxIdleWait", "PT5S"),
            tuple("app.yaml:6:5", "sluice.jobs.idleWaitFactor", "0.5"),
            tuple("app.yaml:7:5", "sluice.jobs.claimOrder", "by-priority"));
    assertThat(problems)
        .extracting(ConfigProblem::rule)
        .containsExactly(
            "must be at least 1",
            "must be at least idleWait (PT10S)",
            "must be at least 1",
            "must be one of: priority, due-date");
  }

  @Test
  void aPriorityAgingBesideClaimingByDueDateIsRefusedNotIgnored() {
    assertThat(
            Configs.problems(
                """
                sluice:
                  jobs:
                    claimOrder: due-date
                    priorityAging: 5s
                flows: [ { name: bare } ]
                """))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.source()).isEqualTo("app.yaml:4:5");
              assertThat(p.path()).isEqualTo("sluice.jobs.priorityAging");
              assertThat(p.value()).isEqualTo("5s");
              assertThat(p.rule())
                  .isEqualTo(
                      "has no effect with claimOrder due-date, which ignores priorities; remove"
                          + " one of them");
            });
  }

  private static final String BROKEN =
      """
      sluice:
        jobs:
          concurrency: 0
          leaseDuration: 2s
          heartbeatInterval: 2s
          retryBackoff: 10s
          maxRetryBackoff: 5s
          backoffFactor: 0.5
          safetyPoll: soon
          priorityAging: 0ms
          history: 30s
          handlers:
            email: { flow: mailer }
            report: { class: com.acme.Missing }
            enrich: { class: io.sluice.config.Enricher }
            both: { flow: worker, class: io.sluice.config.RecordingJobHandler }
      flows:
        - name: worker
        - name: audit
      """;

  @Test
  void everyBrokenRuleIsReportedAtOnceWithItsKeyValueRuleAndLine() {
    List<ConfigProblem> problems = Configs.problems(BROKEN);

    assertThat(problems)
        .extracting(ConfigProblem::source, ConfigProblem::path, p -> String.valueOf(p.value()))
        .containsExactly(
            tuple("app.yaml:3:5", "sluice.jobs.concurrency", "0"),
            tuple("app.yaml:5:5", "sluice.jobs.heartbeatInterval", "PT2S"),
            tuple("app.yaml:7:5", "sluice.jobs.maxRetryBackoff", "PT5S"),
            tuple("app.yaml:8:5", "sluice.jobs.backoffFactor", "0.5"),
            tuple("app.yaml:9:5", "sluice.jobs.safetyPoll", "soon"),
            tuple("app.yaml:10:5", "sluice.jobs.priorityAging", "0ms"),
            tuple("app.yaml:11:5", "sluice.jobs.history", "30s"),
            tuple("app.yaml:13:16", "sluice.jobs.handlers.email.flow", "mailer"),
            tuple("app.yaml:14:17", "sluice.jobs.handlers.report.class", "com.acme.Missing"),
            tuple(
                "app.yaml:15:17", "sluice.jobs.handlers.enrich.class", "io.sluice.config.Enricher"),
            tuple("app.yaml:16:7", "sluice.jobs.handlers.both", "flow, class"));
  }

  @Test
  void anUnknownAcquisitionStrategyAndFewerMaxCandidatesThanBaseAreNamedAtTheirLines() {
    List<ConfigProblem> problems =
        Configs.problems(
            """
            sluice:
              jobs:
                acquisition: pessimistic
            flows: [ { name: bare } ]
            """);
    assertThat(problems)
        .extracting(p -> p.source().substring(0, 11), ConfigProblem::path, p -> p.value())
        .containsExactly(tuple("app.yaml:3:", "sluice.jobs.acquisition", "pessimistic"));

    assertThat(
            Configs.problems(
                """
                sluice:
                  jobs:
                    jobsPerCycle: 5
                    maxJobsPerCycle: 4
                flows: [ { name: bare } ]
                """))
        .extracting(ConfigProblem::source, ConfigProblem::path, ConfigProblem::rule)
        .containsExactly(
            tuple(
                "app.yaml:4:5",
                "sluice.jobs.maxJobsPerCycle",
                "must be at least jobsPerCycle (5)"));
  }

  @Test
  void theRulesSayWhatIsWrongAndWhatIsAllowed() {
    assertThat(rule("sluice.jobs.concurrency")).isEqualTo("must be at least 1");
    assertThat(rule("sluice.jobs.heartbeatInterval"))
        .isEqualTo(
            "must be at most half of leaseDuration (PT2S), so one late heartbeat does not lapse"
                + " the lease");
    assertThat(rule("sluice.jobs.maxRetryBackoff"))
        .isEqualTo("must be at least retryBackoff (PT10S)");
    assertThat(rule("sluice.jobs.safetyPoll")).isEqualTo(Durations.RULE);
    assertThat(rule("sluice.jobs.priorityAging")).isEqualTo("must be a duration of at least 1 ms");
    assertThat(rule("sluice.jobs.history"))
        .isEqualTo("must be 0ms (no history kept) or a duration from 1m to 8760h (365 days)");
    assertThat(rule("sluice.jobs.handlers.email.flow"))
        .isEqualTo("is not a flow of this configuration; its flows: audit, worker");
    assertThat(rule("sluice.jobs.handlers.report.class"))
        .contains("could not be loaded")
        .contains("searched the classpath");
    assertThat(rule("sluice.jobs.handlers.enrich.class"))
        .isEqualTo("does not implement io.sluice.jobs.JobHandler");
    assertThat(rule("sluice.jobs.handlers.both"))
        .isEqualTo("must hold exactly one of: flow, class");
  }

  private static String rule(String path) {
    return Configs.rule(BROKEN, path);
  }

  @Test
  void aJobTypeThatIsNotOneIsRefusedAtItsLine() {
    assertThat(
            Configs.problems(
                """
                sluice:
                  jobs:
                    handlers:
                      "send email": { flow: worker }
                flows:
                  - name: worker
                """))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.path()).isEqualTo("sluice.jobs.handlers.send email");
              assertThat(p.value()).isEqualTo("send email");
              assertThat(p.rule())
                  .isEqualTo(
                      "is not an allowed name: it must match ^[A-Za-z0-9._:-]+$ and be at most 200"
                          + " characters");
              assertThat(p.source()).isEqualTo("app.yaml:4:7");
            });
  }

  @Test
  void jobsNeedADurableStore() {
    assertThat(
            Configs.problems(
                """
                sluice:
                  store: { type: memory }
                  jobs: { concurrency: 2 }
                flows: [ { name: bare } ]
                """))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.path()).isEqualTo("sluice.store.type");
              assertThat(p.value()).isEqualTo("memory");
              assertThat(p.rule()).contains("cannot keep jobs").contains("sqlite");
              assertThat(p.source()).isEqualTo("app.yaml:2:12");
            });
  }
}
