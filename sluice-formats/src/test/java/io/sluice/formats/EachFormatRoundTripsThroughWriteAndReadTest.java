package io.sluice.formats;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class EachFormatRoundTripsThroughWriteAndReadTest {

  @ParameterizedTest
  @EnumSource(
      value = Format.class,
      names = {"JSON", "YAML"})
  void aDocumentWrittenAndReadAgainIsTheSame(Format format) {
    Object original = ReadProcessor.of(Format.JSON).process(Documents.file("order.json")).payload();

    Message written = WriteProcessor.of(format).process(Message.of(original));
    Object again = ReadProcessor.of(format).process(written).payload();

    assertThat(written.payload()).isInstanceOf(String.class);
    assertThat(again).isEqualTo(original);
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void prettyBytesReadBackAsWell(Format format) {
    Object original =
        format == Format.CSV
            ? List.of(Map.of("sku", "A-1", "quantity", "2"))
            : Map.of("sku", "A-1", "quantity", "2");
    WriteProcessor write =
        new WriteProcessor(
            WriteConfig.builder(format).pretty(true).output(WriteConfig.Output.BYTES).build());

    Message written = write.process(Message.of(original));
    Object again = ReadProcessor.of(format).process(written).payload();

    assertThat(written.payload()).isInstanceOf(byte[].class);
    assertThat(again).isEqualTo(original);
  }

  @ParameterizedTest
  @EnumSource(
      value = Format.class,
      names = {"XML", "CSV"})
  void theTestDocumentsRoundTrip(Format format) {
    String name = format == Format.XML ? "order.xml" : "items.csv";
    Object original = ReadProcessor.of(format).process(Documents.file(name)).payload();

    Message written = WriteProcessor.of(format).process(Message.of(original));
    Object again = ReadProcessor.of(format).process(written).payload();

    assertThat(again).isEqualTo(original);
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void theWrittenTextIsWhatEachFormatLooksLike(Format format) {
    Object value =
        format == Format.CSV
            ? List.of(Map.of("sku", "A-1"), Map.of("sku", "B, 7"))
            : Map.of("sku", "A-1");

    String text = (String) WriteProcessor.of(format).process(Message.of(value)).payload();

    assertThat(text)
        .isEqualTo(
            switch (format) {
              case JSON -> "{\"sku\":\"A-1\"}";
              case XML -> "<root><sku>A-1</sku></root>";
              case CSV -> "sku\nA-1\n\"B, 7\"\n";
              case YAML -> "sku: \"A-1\"\n";
            });
    assertThat(text.getBytes(StandardCharsets.UTF_8)).isNotEmpty();
  }
}
