package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.batch.BatchProgress;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ProgressIsShownAsABarOrLinesTest {

  /** 370,000 of 1,000,000 through, 12 failed, in 2 s of this run. */
  private static final BatchProgress SIZED =
      new BatchProgress(
          400_000, 370_000, 12, OptionalLong.of(1_000_000), Duration.ofSeconds(2), 370_000);

  private static final BatchProgress UNSIZED =
      new BatchProgress(400_000, 370_000, 12, OptionalLong.empty(), Duration.ofSeconds(2), 370_000);

  @Test
  void aBarShowsTheShareDoneTheRateTheTimeLeftAndTheFailures() {
    assertThat(ProgressDisplay.bar(SIZED))
        .isEqualTo(
            "[#########---------------]  37%  370,000/1,000,000  185,000 rec/s  ETA 3s  12 failed");
  }

  @Test
  void withoutTheInputsSizeTheCountsAndRateAreShown() {
    assertThat(ProgressDisplay.bar(UNSIZED))
        .isEqualTo("processed 370,000, loaded 400,000, 185,000 rec/s, 12 failed");
    assertThat(ProgressDisplay.text(SIZED))
        .isEqualTo(
            "processed 370,000 of 1,000,000 (37%), loaded 400,000, 185,000 rec/s, ETA 3s, 12 failed");
  }

  @Test
  void theBarIsRedrawnInPlaceAndEndsWithALineOfItsOwn() {
    StringWriter text = new StringWriter();
    ProgressDisplay display = new ProgressDisplay(new PrintWriter(text), ProgressDisplay.Style.BAR);

    display.show(SIZED);
    display.show(UNSIZED);
    display.finish(SIZED);

    String[] draws = text.toString().split("\r", -1);
    assertThat(draws).hasSize(4);
    int longer = ProgressDisplay.bar(SIZED).length() - ProgressDisplay.bar(UNSIZED).length();
    assertThat(draws[2])
        .as("the longer bar before is covered")
        .isEqualTo(ProgressDisplay.bar(UNSIZED) + " ".repeat(longer));
    assertThat(draws[3]).endsWith("12 failed" + System.lineSeparator());
    assertThat(display.every()).isEqualTo(Duration.ofMillis(200));
  }

  @Test
  void linesArePrintedOneAfterTheOtherAndNothingWhenAskedForNone() {
    StringWriter lines = new StringWriter();
    ProgressDisplay display =
        new ProgressDisplay(new PrintWriter(lines), ProgressDisplay.Style.LINES);
    display.show(SIZED);
    display.finish(SIZED);
    assertThat(lines.toString())
        .isEqualTo("  " + ProgressDisplay.text(SIZED) + System.lineSeparator());
    assertThat(display.every()).isEqualTo(Duration.ofSeconds(5));

    StringWriter none = new StringWriter();
    new ProgressDisplay(new PrintWriter(none), ProgressDisplay.Style.NONE).show(SIZED);
    assertThat(none.toString()).isEmpty();
  }
}
