package io.sluice.formats;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DepthAndSizeAreBoundedTest {

  private static String nested(Format format, int depth) {
    return switch (format) {
      case JSON -> "[".repeat(depth) + "]".repeat(depth);
      case YAML -> "[".repeat(depth) + "]".repeat(depth);
      case XML -> "<a>".repeat(depth) + "</a>".repeat(depth);
      case CSV -> throw new IllegalArgumentException("CSV does not nest");
    };
  }

  private static ReadProcessor reader(Format format, int maxDepth) {
    return new ReadProcessor(ReadConfig.builder().format(format).maxDepth(maxDepth).build());
  }

  @ParameterizedTest
  @EnumSource(
      value = Format.class,
      names = {"JSON", "XML", "YAML"})
  void aDocumentDeeperThanMaxDepthFailsWithParse(Format format) {
    FormatException error =
        Documents.failure(() -> reader(format, 20).process(Message.of(nested(format, 21))));

    assertThat(error.errorType()).isEqualTo(FormatException.PARSE);
    assertThat(error.line()).isEqualTo(1);
    assertThat(error.getMessage()).containsIgnoringCase("depth");
  }

  @ParameterizedTest
  @EnumSource(
      value = Format.class,
      names = {"JSON", "XML", "YAML"})
  void aDocumentAsDeepAsMaxDepthReads(Format format) {
    assertThat(reader(format, 20).process(Message.of(nested(format, 20))).payload()).isNotNull();
  }

  @Test
  void theDefaultDepthRefusesAHundredThousandLevelsOfJson() {
    FormatException error =
        Documents.failure(
            () -> ReadProcessor.of(Format.JSON).process(Message.of(nested(Format.JSON, 100_000))));

    assertThat(error.getMessage()).contains("500");
  }

  @Test
  void aDocumentLargerThanMaxSizeFailsWithParseWhateverItComesAs() {
    ReadProcessor read =
        new ReadProcessor(ReadConfig.builder().format(Format.JSON).maxSize(100).build());
    String big = "[" + "1,".repeat(100) + "1]";
    byte[] bytes = big.getBytes(StandardCharsets.UTF_8);

    for (Object payload : new Object[] {big, bytes, new ByteArrayInputStream(bytes)}) {
      FormatException error = Documents.failure(() -> read.process(Message.of(payload)));
      assertThat(error.errorType()).isEqualTo(FormatException.PARSE);
      assertThat(error.getMessage()).contains("maxSize");
    }
  }

  @Test
  void aTextLongerThanMaxSizeFailsAStreamingReadToo() {
    ReadProcessor read =
        new ReadProcessor(
            ReadConfig.builder().format(Format.JSON).streaming(true).maxSize(1000).build());
    String document = "[\"short\", \"" + "x".repeat(2000) + "\"]";

    StreamedValues values = (StreamedValues) read.process(Message.of(document)).payload();

    assertThat(values.next()).isEqualTo("short");
    FormatException error = Documents.failure(values::next);
    assertThat(error.errorType()).isEqualTo(FormatException.PARSE);
    assertThat(error.getMessage()).contains("1000");
  }

  @Test
  void yamlAliasesAreRefusedSoTheyCannotMultiplyIntoABillionLaughs() {
    StringBuilder yaml = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for (char c = 'b'; c <= 'k'; c++) {
      char previous = (char) (c - 1);
      yaml.append(c).append(": &").append(c).append(" [");
      yaml.append(("*" + previous + ", ").repeat(9)).append("*").append(previous).append("]\n");
    }

    FormatException error =
        Documents.failure(() -> ReadProcessor.of(Format.YAML).process(Message.of(yaml.toString())));

    assertThat(error.errorType()).isEqualTo(FormatException.PARSE);
    assertThat(error.line()).isEqualTo(2);
    assertThat(error.getMessage()).contains("the alias *a is refused");
  }

  @Test
  void yamlAnchorsWithoutAliasesRead() {
    Object value =
        ReadProcessor.of(Format.YAML).process(Message.of("a: &x 1\nb: [&y 2]\n")).payload();

    assertThat(value).isEqualTo(java.util.Map.of("a", 1, "b", java.util.List.of(2)));
  }
}
