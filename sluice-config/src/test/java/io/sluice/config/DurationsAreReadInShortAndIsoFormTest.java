package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.config.spi.Durations;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsAreReadInShortAndIsoFormTest {

  @ParameterizedTest
  @CsvSource({
    "500ms, PT0.5S",
    "30s, PT30S",
    "2m, PT2M",
    "1h, PT1H",
    "7d, PT168H",
    "0s, PT0S",
    "PT30S, PT30S",
    "PT1.5S, PT1.5S",
    "P1DT2H, PT26H"
  })
  void aValidDurationIsRead(String text, String iso) {
    assertThat(Durations.parse(text)).isEqualTo(Duration.parse(iso));
  }

  @ParameterizedTest
  @ValueSource(strings = {"30", "30 s", "1.5s", "-1s", "30sec", "P", "PT", "1w", "1D", ""})
  void anythingElseIsNotADuration(String text) {
    assertThat(Durations.parse(text)).isNull();
  }
}
