package io.sluice.formats;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import java.io.ByteArrayInputStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ValuesThatCannotBeWrittenFailWithWriteTest {

  @Test
  void aNestedMapInACsvCellFailsNamingTheRowAndColumn() {
    Message rows = Message.of(List.of(Map.of("a", 1), Map.of("a", Map.of("deep", true))));

    FormatException error = Documents.failure(() -> WriteProcessor.of(Format.CSV).process(rows));

    assertThat(error.errorType()).isEqualTo(FormatException.WRITE);
    assertThat(error.getMessage()).contains("row 2, column a");
  }

  @Test
  void csvOfSomethingThatIsNotRowsFails() {
    FormatException error =
        Documents.failure(() -> WriteProcessor.of(Format.CSV).process(Message.of("text")));

    assertThat(error.errorType()).isEqualTo(FormatException.WRITE);
    assertThat(error.getMessage()).contains("CSV is rows");
  }

  @Test
  void aStreamIsNotAValueJsonWrites() {
    Message stream = Message.of(new ByteArrayInputStream(new byte[] {1}));

    FormatException error = Documents.failure(() -> WriteProcessor.of(Format.JSON).process(stream));

    assertThat(error.errorType()).isEqualTo(FormatException.WRITE);
  }

  @Test
  void timesAreWrittenAsTheirIsoText() {
    Object text =
        WriteProcessor.of(Format.JSON)
            .process(Message.of(Map.of("at", Instant.parse("2026-11-28T05:00:00Z"))))
            .payload();

    assertThat(text).isEqualTo("{\"at\":\"2026-11-28T05:00:00Z\"}");
  }
}
