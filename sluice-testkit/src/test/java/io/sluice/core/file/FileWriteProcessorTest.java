package io.sluice.core.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.expression.Template;
import io.sluice.testkit.RecordingSourceContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The file sink: what it writes, how each mode writes it, and which names it refuses. */
class FileWriteProcessorTest {

  @TempDir Path root;

  private final RecordingSourceContext flow =
      new RecordingSourceContext(Instant.parse("2030-01-01T00:00:00Z"), ZoneOffset.UTC);

  private FileWriteProcessor sink(WriteMode mode) {
    FileWriteProcessor sink =
        new FileWriteProcessor(
            root.resolve("out"), Template.parse("fileName", "#[attributes.fileName]"), mode);
    sink.start(flow);
    return sink;
  }

  private static Message named(String fileName, Object payload) {
    return Message.of(payload, Map.of("fileName", fileName));
  }

  private Path out(String name) {
    return root.resolve("out").resolve(name);
  }

  private long filesIn(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.count();
    }
  }

  @Test
  void startCreatesAMissingDirectory() {
    sink(WriteMode.OVERWRITE);

    assertThat(root.resolve("out")).isDirectory();
  }

  @Test
  void overwriteReplacesTheFileWholeSoAReaderOfTheOldOneNeverSeesPartOfTheNew() throws Exception {
    FileWriteProcessor sink = sink(WriteMode.OVERWRITE);
    sink.process(named("report.txt", "old content"));

    try (InputStream reader = Files.newInputStream(out("report.txt"))) {
      Message result = sink.process(named("report.txt", "new content, longer than the old"));

      assertThat(new String(reader.readAllBytes(), StandardCharsets.UTF_8))
          .isEqualTo("old content");
      assertThat(result.attribute("writtenPath"))
          .isEqualTo(out("report.txt").toAbsolutePath().toString());
    }
    assertThat(out("report.txt")).hasContent("new content, longer than the old");
    assertThat(filesIn(root.resolve("out"))).as("no temporary file left behind").isEqualTo(1);
  }

  @Test
  void appendAddsToTheFileAndCreatesItIfNeeded() throws Exception {
    FileWriteProcessor sink = sink(WriteMode.APPEND);

    sink.process(named("log.txt", "one\n"));
    sink.process(named("log.txt", "two\n"));

    assertThat(out("log.txt")).hasContent("one\ntwo\n");
  }

  @Test
  void createNewFailsWhenTheFileExistsAndLeavesItAlone() throws Exception {
    FileWriteProcessor sink = sink(WriteMode.CREATE_NEW);
    sink.process(named("once.txt", "first"));

    assertThatThrownBy(() -> sink.process(named("once.txt", "second")))
        .isInstanceOf(SluiceException.class)
        .hasMessageContaining("'" + out("once.txt").toAbsolutePath() + "' already exists")
        .hasMessageContaining("CREATE_NEW");
    assertThat(out("once.txt")).hasContent("first");
  }

  @Test
  void payloadIsWrittenAsBytesTextAsUtf8AndAnythingElseAsItsStringForm() throws Exception {
    FileWriteProcessor sink = sink(WriteMode.OVERWRITE);

    sink.process(named("bytes.bin", new byte[] {0, (byte) 0xff, 42}));
    sink.process(named("text.txt", "Grüße"));
    sink.process(named("number.txt", 1234));
    sink.process(named("nothing.txt", null));

    assertThat(out("bytes.bin")).hasBinaryContent(new byte[] {0, (byte) 0xff, 42});
    assertThat(out("text.txt")).hasBinaryContent("Grüße".getBytes(StandardCharsets.UTF_8));
    assertThat(out("number.txt")).hasContent("1234");
    assertThat(out("nothing.txt")).isEmptyFile();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", ".", "..", "a/b.txt", "../escape.txt", "a\\b.txt"})
  void fileNameThatIsEmptyOrLeavesTheDirectoryIsRejectedNamingIt(String bad) {
    FileWriteProcessor sink = sink(WriteMode.OVERWRITE);

    assertThatThrownBy(() -> sink.process(named(bad, "x")))
        .isInstanceOf(SluiceException.class)
        .hasMessageContaining("rendered to '" + bad + "'")
        .hasMessageContaining("#[attributes.fileName]");
    assertThat(root.resolve("escape.txt")).doesNotExist();
  }
}
