package io.sluice.formats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.Message;
import io.sluice.core.spi.ProcessingType;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StreamingReadIteratesLazilyTest {

  private static ReadProcessor streaming(Format format) {
    return new ReadProcessor(ReadConfig.builder().format(format).streaming(true).build());
  }

  private static StreamedValues values(Format format, Object payload) {
    return (StreamedValues) streaming(format).process(Message.of(payload)).payload();
  }

  @Test
  void anEndlessJsonArrayYieldsItsFirstElementsHavingReadOnlyAFewKilobytes() {
    GeneratedDocument endless = GeneratedDocument.jsonArray(-1);

    try (StreamedValues values = values(Format.JSON, endless)) {
      for (int i = 0; i < 1000; i++) {
        assertThat(values.next()).isEqualTo(Map.of("id", i, "sku", "S-" + i, "quantity", 3));
      }
      assertThat(endless.bytesRead()).isLessThan(128 * 1024);
    }
    assertThat(endless.closed()).isTrue();
  }

  @Test
  void anEndlessCsvYieldsRowsAsTheyAreRead() {
    GeneratedDocument endless = GeneratedDocument.csv(-1);

    try (StreamedValues values = values(Format.CSV, endless)) {
      assertThat(values.next()).isEqualTo(Map.of("id", "0", "sku", "S-0", "quantity", "3"));
      assertThat(values.next()).isEqualTo(Map.of("id", "1", "sku", "S-1", "quantity", "3"));
      assertThat(endless.bytesRead()).isLessThan(128 * 1024);
    }
    assertThat(endless.closed()).isTrue();
  }

  @Test
  void theInputIsClosedWhenTheLastValueWasRead() {
    GeneratedDocument document = GeneratedDocument.jsonArray(100_000);
    Iterator<Object> values = values(Format.JSON, document);

    long count = 0;
    while (values.hasNext()) {
      values.next();
      count++;
    }

    assertThat(count).isEqualTo(100_000);
    assertThat(document.closed()).isTrue();
    assertThatThrownBy(values::next).isInstanceOf(NoSuchElementException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {"[1, 2] [3]", "[1, 2] garbage"})
  void contentAfterTheArrayIsRefusedAsAWholeReadRefusesIt(String text) {
    StreamedValues values = values(Format.JSON, text);

    assertThat(values.next()).isEqualTo(1);
    assertThat(values.next()).isEqualTo(2);
    FormatException error = Documents.failure(values::hasNext);

    assertThat(error.errorType()).isEqualTo(FormatException.PARSE);
  }

  @Test
  void theInputIsClosedWhenAValueDoesNotParse() {
    GeneratedDocument broken = new GeneratedDocument("[1, 2, ", n -> "}", 1, "");
    StreamedValues values = values(Format.JSON, broken);

    assertThat(values.next()).isEqualTo(1);
    assertThat(values.next()).isEqualTo(2);
    FormatException error = Documents.failure(values::hasNext);

    assertThat(error.errorType()).isEqualTo(FormatException.PARSE);
    assertThat(error.line()).isEqualTo(1);
    assertThat(broken.closed()).isTrue();
    assertThat(values.hasNext()).isFalse();
  }

  @Test
  void aDocumentThatIsNotAnArrayIsRefusedAtOnceAndClosed() {
    GeneratedDocument object = new GeneratedDocument("{\"a\": 1}", n -> "", 0, "");

    FormatException error = Documents.failure(() -> values(Format.JSON, object));

    assertThat(error.getMessage()).contains("needs a top-level array");
    assertThat(object.closed()).isTrue();
  }

  @Test
  void nullElementsAndEmptyArraysAreIteratedFaithfully() {
    List<Object> seen = new java.util.ArrayList<>();
    values(Format.JSON, "[null, 1, [], {}]").forEachRemaining(seen::add);

    assertThat(seen).containsExactly(null, 1, List.of(), Map.of());
    assertThat(values(Format.JSON, "[]").hasNext()).isFalse();
  }

  @Test
  void streamingIsBlockingIoAndXmlCannotStream() {
    assertThat(streaming(Format.JSON).processingType()).isEqualTo(ProcessingType.BLOCKING_IO);
    assertThat(ReadProcessor.of(Format.JSON).processingType())
        .isEqualTo(ReadConfig.DEFAULT_PROCESSING_TYPE);
    assertThatThrownBy(() -> streaming(Format.XML))
        .hasMessageContaining("streaming")
        .hasMessageContaining("is for JSON (a top-level array) and CSV");
  }

  @Test
  void aStreamedCsvIsWrittenBackRowByRow() {
    StreamedValues rows = values(Format.CSV, GeneratedDocument.csv(3));

    Object text = WriteProcessor.of(Format.CSV).process(Message.of(rows)).payload();

    assertThat(text).isEqualTo("id,sku,quantity\n0,S-0,3\n1,S-1,3\n2,S-2,3\n");
    assertThat(rows.hasNext()).isFalse();
  }

  @Test
  void aStreamedJsonArrayIsWrittenBackAsAnArray() {
    StreamedValues values = values(Format.JSON, "[{\"a\":1},2,\"three\"]");

    Object text = WriteProcessor.of(Format.JSON).process(Message.of(values)).payload();

    assertThat(text).isEqualTo("[{\"a\":1},2,\"three\"]");
  }
}
