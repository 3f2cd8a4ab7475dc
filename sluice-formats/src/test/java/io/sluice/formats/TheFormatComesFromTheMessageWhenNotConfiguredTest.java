package io.sluice.formats;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TheFormatComesFromTheMessageWhenNotConfiguredTest {

  private final ReadProcessor read = new ReadProcessor(ReadConfig.builder().build());

  @Test
  void anHttpContentTypeHeaderNamesTheFormat() {
    Message request =
        Message.of(
            "<a><b>1</b></a>",
            Map.of("headers", Map.of("content-type", "application/xml; charset=UTF-8")));

    assertThat(read.process(request).payload()).isEqualTo(Map.of("b", "1"));
  }

  @Test
  void aStructuredSuffixNamesTheFormat() {
    Message request =
        Message.of(
            "{\"b\":1}", Map.of("headers", Map.of("content-type", "application/vnd.api+json")));

    assertThat(read.process(request).payload()).isEqualTo(Map.of("b", 1));
  }

  @Test
  void aFilesExtensionNamesTheFormat() {
    assertThat(read.process(Documents.file("items.csv")).payload())
        .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
        .hasSize(2);
    assertThat(read.process(Documents.file("order.yaml")).payload()).isInstanceOf(Map.class);
  }

  @Test
  void aConfiguredMimeTypeWinsOverTheMessage() {
    ReadProcessor csv = new ReadProcessor(ReadConfig.builder().mimeType("text/csv").build());

    assertThat(csv.process(Message.of("a\n1\n", Map.of("fileName", "x.json"))).payload())
        .isEqualTo(java.util.List.of(Map.of("a", "1")));
  }

  @Test
  void aMessageNamingNoFormatFailsSayingWhatToSet() {
    Message plain =
        Message.of(
            "hello", Map.of("headers", Map.of("content-type", "text/plain"), "fileName", "x"));

    FormatException error = Documents.failure(() -> read.process(plain));

    assertThat(error.errorType()).isEqualTo("FORMAT:PARSE");
    assertThat(error.getMessage())
        .contains("names no format", "'text/plain'", "'x'", "set format (JSON, XML, CSV, YAML)");
  }
}
