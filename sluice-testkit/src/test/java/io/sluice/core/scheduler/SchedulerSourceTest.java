package io.sluice.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.FlowBusyException;
import io.sluice.testkit.RecordingSourceContext;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** When the scheduler fires, what it hands over, and what it skips; time driven by the test. */
class SchedulerSourceTest {

  private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
  private static final Instant T0 = Instant.parse("2030-03-30T12:00:00Z");
  private static final Duration MINUTE = Duration.ofMinutes(1);

  private final RecordingSourceContext flow = new RecordingSourceContext(T0, PARIS);
  private SchedulerSource source;

  @AfterEach
  void stopSource() {
    if (source != null) {
      source.stop();
    }
  }

  private void start(SchedulerSource scheduler) {
    source = scheduler;
    source.start(flow);
  }

  private List<Object> scheduledTimes() {
    return flow.submissions().stream().map(s -> s.message().attribute("scheduledTime")).toList();
  }

  private void completeAll() {
    flow.submissions().forEach(RecordingSourceContext.Submission::succeed);
  }

  @Test
  void fixedFrequencyFiresAfterTheStartDelayThenEveryPeriod() {
    start(SchedulerSource.fixedFrequency(MINUTE, Duration.ofSeconds(10)));
    assertThat(flow.manualTimer().pending()).containsExactly(T0.plusSeconds(10));

    for (int i = 0; i < 3; i++) {
      flow.manualTimer().advance(i == 0 ? Duration.ofSeconds(10) : MINUTE);
      completeAll();
    }

    assertThat(scheduledTimes())
        .containsExactly(T0.plusSeconds(10), T0.plusSeconds(70), T0.plusSeconds(130));
    assertThat(flow.last().message().payload()).isNull();
    assertThat(flow.last().message().attribute("firedAt")).isEqualTo(T0.plusSeconds(130));
  }

  @Test
  void fixedFrequencyKeepsToItsGridWhenAFiringRunsLate() {
    start(SchedulerSource.fixedFrequency(MINUTE, Duration.ZERO));
    flow.manualTimer().runDue();
    completeAll();

    flow.manualClock().advance(Duration.ofSeconds(75)); // the timer was 15 s late
    flow.manualTimer().runDue();

    assertThat(flow.last().message().attributes())
        .containsEntry("scheduledTime", T0.plus(MINUTE))
        .containsEntry("firedAt", T0.plusSeconds(75));
    assertThat(flow.manualTimer().pending()).containsExactly(T0.plus(MINUTE.multipliedBy(2)));
  }

  @Test
  void fixedFrequencySkipsAndCountsSlotsMissedEntirely() {
    start(SchedulerSource.fixedFrequency(MINUTE, Duration.ZERO));
    flow.manualTimer().runDue();
    completeAll();

    flow.manualClock().advance(Duration.ofSeconds(210)); // slots at 2 and 3 min pass unseen
    flow.manualTimer().runDue();

    assertThat(scheduledTimes()).containsExactly(T0, T0.plus(MINUTE));
    assertThat(flow.manualTimer().pending()).containsExactly(T0.plus(MINUTE.multipliedBy(4)));
    assertThat(flow.count("sluice.scheduler.skipped")).isEqualTo(2);
  }

  @Test
  void firingThatFindsThePreviousOneStillInTheFlowIsSkippedAndCounted() {
    start(SchedulerSource.fixedFrequency(MINUTE, Duration.ZERO));
    flow.manualTimer().runDue();

    flow.manualTimer().advance(MINUTE);

    assertThat(scheduledTimes()).containsExactly(T0);
    assertThat(flow.count("sluice.scheduler.skipped")).isEqualTo(1);

    flow.last().succeed();
    flow.manualTimer().advance(MINUTE);

    assertThat(scheduledTimes()).containsExactly(T0, T0.plus(MINUTE.multipliedBy(2)));
  }

  @Test
  void firingTheFlowRefusedIsCountedAsSkippedAndTheNextOneStillFires() {
    start(SchedulerSource.fixedFrequency(MINUTE, Duration.ZERO));
    flow.manualTimer().runDue();
    flow.last().fail(new FlowBusyException("test-flow", "auto", "full"));

    flow.manualTimer().advance(MINUTE);

    assertThat(scheduledTimes()).containsExactly(T0, T0.plus(MINUTE));
    assertThat(flow.count("sluice.scheduler.skipped")).isEqualTo(1);
  }

  @Test
  void cronFiresAtItsLocalTimesAcrossADaylightSavingChange() {
    // Paris moves from UTC+1 to UTC+2 on Sunday 31 March 2030.
    start(SchedulerSource.cron("flows[0].source.cron", "0 30 9 * * ?", PARIS));

    for (int i = 0; i < 3; i++) {
      flow.manualTimer().advance(Duration.ofDays(1));
      completeAll();
    }

    assertThat(scheduledTimes())
        .containsExactly(
            Instant.parse("2030-03-31T07:30:00Z"),
            Instant.parse("2030-04-01T07:30:00Z"),
            Instant.parse("2030-04-02T07:30:00Z"));
  }

  @Test
  void cronEveryFiveMinutesFiresOnTheFiveMinuteMarks() {
    flow.manualClock().advance(Duration.ofSeconds(200)); // 13:03:20 in Paris
    start(SchedulerSource.cron("cron", "0 */5 * * * ?", PARIS));

    for (int i = 0; i < 2; i++) {
      flow.manualTimer().advance(Duration.ofMinutes(5));
      completeAll();
    }

    assertThat(scheduledTimes())
        .containsExactly(
            Instant.parse("2030-03-30T12:05:00Z"), Instant.parse("2030-03-30T12:10:00Z"));
    assertThat(flow.manualTimer().pending()).containsExactly(Instant.parse("2030-03-30T12:15:00Z"));
  }

  @Test
  void invalidCronNamesThePathAndTheExpression() {
    assertThatThrownBy(() -> SchedulerSource.cron("flows[2].source.cron", "0 61 * * * ?", PARIS))
        .isInstanceOfSatisfying(
            ConfigurationException.class,
            e -> {
              ConfigProblem problem = e.problems().getFirst();
              assertThat(problem.path()).isEqualTo("flows[2].source.cron");
              assertThat(problem.value()).isEqualTo("0 61 * * * ?");
              assertThat(problem.rule()).startsWith("is not a valid cron expression: ");
            })
        .hasMessageContaining("flows[2].source.cron")
        .hasMessageContaining("0 61 * * * ?");
  }

  @Test
  void fixedFrequencyThatIsNotPositiveIsRejected() {
    assertThatThrownBy(() -> SchedulerSource.fixedFrequency(Duration.ZERO, Duration.ofSeconds(-1)))
        .isInstanceOfSatisfying(
            ConfigurationException.class,
            e ->
                assertThat(e.problems())
                    .extracting(ConfigProblem::path)
                    .containsExactly("frequency", "startDelay"));
  }

  @Test
  void stopCancelsTheNextFiring() {
    start(SchedulerSource.fixedFrequency(MINUTE, Duration.ZERO));
    flow.manualTimer().runDue();
    completeAll();

    source.stop();
    flow.manualTimer().advance(MINUTE.multipliedBy(5));

    assertThat(flow.manualTimer().pending()).isEmpty();
    assertThat(scheduledTimes()).containsExactly(T0);
  }
}
