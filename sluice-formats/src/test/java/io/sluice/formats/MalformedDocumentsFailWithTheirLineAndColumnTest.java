package io.sluice.formats;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MalformedDocumentsFailWithTheirLineAndColumnTest {

  @ParameterizedTest
  @CsvSource({
    "JSON, malformed.json, 4, 20",
    "XML, malformed.xml, 3, 17",
    "YAML, malformed.yaml, 4, 8",
    "CSV, malformed.csv, 4, 1"
  })
  void aDocumentThatDoesNotParseFailsWithParseAtItsLineAndColumn(
      Format format, String document, long line, long column) {
    FormatException error =
        Documents.failure(() -> ReadProcessor.of(format).process(Documents.file(document)));

    assertThat(error.errorType()).isEqualTo(FormatException.PARSE);
    assertThat(error.format()).isEqualTo(format);
    assertThat(error.line()).isEqualTo(line);
    assertThat(error.column()).isEqualTo(column);
    assertThat(error.getMessage())
        .startsWith("The " + format + " document could not be read at line " + line)
        .doesNotContain("\n");
  }

  @Test
  void contentAfterTheDocumentIsRefused() {
    FormatException error =
        Documents.failure(
            () -> ReadProcessor.of(Format.JSON).process(Message.of("{\"a\": 1}\n{\"b\": 2}")));

    assertThat(error.getMessage()).contains("Trailing token");
    assertThat(error.line()).isEqualTo(2);
  }

  @Test
  void aReasonNamesPlacesAsLinesAndColumnsWithoutJacksonsSourceDescription() {
    FormatException e =
        org.assertj.core.api.Assertions.catchThrowableOfType(
            FormatException.class,
            () ->
                new ReadProcessor(ReadConfig.builder().format(Format.JSON).build())
                    .process(Message.of("{\"id\": 4")));
    assertThat(e.getMessage())
        .isEqualTo(
            "The JSON document could not be read at line 1, column 9: Unexpected end-of-input:"
                + " expected close marker for Object (start marker at line 1, column 1)");
  }
}
