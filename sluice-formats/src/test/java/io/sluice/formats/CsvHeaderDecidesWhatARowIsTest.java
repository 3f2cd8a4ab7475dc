package io.sluice.formats;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CsvHeaderDecidesWhatARowIsTest {

  @Test
  void withAHeaderEachRowIsAMapKeyedByTheColumnsInOrder() {
    Object rows = ReadProcessor.of(Format.CSV).process(Documents.file("items.csv")).payload();

    assertThat(rows)
        .isEqualTo(
            List.of(
                Map.of("sku", "A-1", "name", "Bolt, small", "quantity", "2"),
                Map.of("sku", "B-7", "name", "Nut \"hex\"", "quantity", "1")));
    assertThat(List.<Object>copyOf(((Map<?, ?>) ((List<?>) rows).get(0)).keySet()))
        .containsExactly("sku", "name", "quantity");
  }

  @Test
  void withoutAHeaderEachRowIsAListAndTheSeparatorIsConfigured() {
    ReadProcessor read =
        new ReadProcessor(
            ReadConfig.builder().format(Format.CSV).header(false).separator(';').build());

    Object rows = read.process(Documents.file("items-no-header.csv")).payload();

    assertThat(rows).isEqualTo(List.of(List.of("A-1", "Bolt", "2"), List.of("B-7", "Nut", "1")));
  }

  @Test
  void anotherQuoteCharacterQuotesValues() {
    ReadProcessor read =
        new ReadProcessor(ReadConfig.builder().format(Format.CSV).quote('\'').build());

    Object rows = read.process(Message.of("a,b\n'x, y',z\n")).payload();

    assertThat(rows).isEqualTo(List.of(Map.of("a", "x, y", "b", "z")));
  }

  @Test
  void listRowsAreWrittenWithTheColumnsGiven() {
    WriteProcessor write =
        new WriteProcessor(
            WriteConfig.builder(Format.CSV).columns(List.of("sku", "n")).separator(';').build());

    Object text =
        write.process(Message.of(List.of(List.of("A-1", 2), List.of("B-7", 1)))).payload();

    assertThat(text).isEqualTo("sku;n\nA-1;2\nB-7;1\n");
  }

  @Test
  void mapRowsAreWrittenInTheColumnsOrderWithoutAHeaderWhenAsked() {
    WriteProcessor write =
        new WriteProcessor(
            WriteConfig.builder(Format.CSV).columns(List.of("b", "a")).header(false).build());

    Object text = write.process(Message.of(List.of(Map.of("a", 1, "b", 2)))).payload();

    assertThat(text).isEqualTo("2,1\n");
  }
}
