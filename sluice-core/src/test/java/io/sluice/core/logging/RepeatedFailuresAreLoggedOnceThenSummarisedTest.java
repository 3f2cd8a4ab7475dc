package io.sluice.core.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import io.sluice.core.LogCapture;
import io.sluice.core.testing.ManualClock;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A failure that repeats: one WARN line with its cause, then a summary per interval. */
class RepeatedFailuresAreLoggedOnceThenSummarisedTest {

  private static final Duration INTERVAL = Duration.ofSeconds(30);

  private final ManualClock clock = new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final LogCapture captured =
      LogCapture.of(RepeatedFailuresAreLoggedOnceThenSummarisedTest.class);
  private final RepeatedFailureLog log =
      new RepeatedFailureLog(
          LoggerFactory.getLogger(RepeatedFailuresAreLoggedOnceThenSummarisedTest.class),
          "Store 'orders' failing",
          clock,
          INTERVAL);

  @AfterEach
  void detach() {
    captured.close();
  }

  private void fail(int i) {
    log.failed("Could not write message {}: {}", i, "database or disk is full");
  }

  @Test
  void manyFailuresWithinTheIntervalGiveTheFirstLineAndOneSummary() {
    for (int i = 1; i <= 1000; i++) {
      fail(i);
      clock.advance(Duration.ofMillis(20));
    }
    assertThat(captured.at(Level.WARN))
        .containsExactly("Could not write message 1: database or disk is full");

    clock.advance(INTERVAL);
    fail(1001);

    assertThat(captured.at(Level.WARN))
        .containsExactly(
            "Could not write message 1: database or disk is full",
            "Store 'orders' failing: 1000 more time(s) in the last 50 s; the last: Could not"
                + " write message 1001: database or disk is full");
  }

  @Test
  void aFailureRunLastingLongGivesOneSummaryPerInterval() {
    for (int second = 0; second < 600; second++) {
      fail(second);
      fail(second);
      clock.advance(Duration.ofSeconds(1));
    }
    // The first line, then one summary each time 30 s have passed: 600 s give 19 more.
    assertThat(captured.at(Level.WARN)).hasSize(20);
    assertThat(captured.at(Level.WARN).get(1))
        .startsWith("Store 'orders' failing: 60 more time(s) in the last 30 s");
  }

  @Test
  void theFirstLineCarriesTheCauseWithItsStackTrace() {
    IOException cause = new IOException("No space left on device");
    log.failed("Could not write '{}'", "a.txt", cause);

    assertThat(captured.events(Level.WARN))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getFormattedMessage()).isEqualTo("Could not write 'a.txt'");
              assertThat(e.getThrowableProxy().getMessage()).isEqualTo("No space left on device");
            });
  }

  @Test
  void recoveryIsLoggedWithTheFailuresCountAndTheNextFailureIsLoggedWholeAgain() {
    fail(1);
    clock.advance(Duration.ofSeconds(5));
    fail(2);
    fail(3);
    clock.advance(Duration.ofSeconds(5));

    assertThat(log.recovered()).isTrue();
    assertThat(log.recovered()).as("only the first success after failures").isFalse();
    assertThat(captured.at(Level.INFO))
        .containsExactly(
            "Store 'orders' failing: works again after 3 failure(s) over 10 s (2 since the last"
                + " line)");

    fail(4);
    assertThat(captured.at(Level.WARN))
        .containsExactly(
            "Could not write message 1: database or disk is full",
            "Could not write message 4: database or disk is full");
  }

  @Test
  void aSuccessWithoutFailuresLogsNothing() {
    assertThat(log.recovered()).isFalse();
    assertThat(captured.at(Level.INFO)).isEmpty();
  }

  @Test
  void anIntervalThatIsNotPositiveIsRefusedNamingTheSubject() {
    assertThatThrownBy(
            () ->
                new RepeatedFailureLog(
                    LoggerFactory.getLogger(getClass()), "Queue 'q'", clock, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the summary interval of 'Queue 'q'' must be positive, was PT0S");
  }
}
