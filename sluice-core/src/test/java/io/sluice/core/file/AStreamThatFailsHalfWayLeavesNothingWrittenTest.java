package io.sluice.core.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file sink given a stream that fails after part of it was written (a streamed file cut short, a
 * client gone mid-body) leaves the file as it was before, in every mode.
 */
class AStreamThatFailsHalfWayLeavesNothingWrittenTest {

  @TempDir Path directory;

  /** 200 KB of 'x' (more than one 64 KB buffer), then an I/O error. */
  private static InputStream failingStream() {
    return new InputStream() {
      private int left = 200 * 1024;

      @Override
      public int read() throws IOException {
        if (left-- > 0) {
          return 'x';
        }
        throw new IOException("the source went away");
      }
    };
  }

  private Message streamed() {
    return Message.of(failingStream()).withAttribute("fileName", "out.txt");
  }

  private FileWriteProcessor sink(WriteMode mode) {
    return new FileWriteProcessor(
        directory, Template.parse("fileName", "#[attributes.fileName]"), mode);
  }

  @Test
  void anAppendIsCutBackToWhereItBegan() throws IOException {
    Path file = Files.writeString(directory.resolve("out.txt"), "before\n");

    assertThatThrownBy(() -> sink(WriteMode.APPEND).process(streamed()))
        .hasMessage("the source went away");

    assertThat(file).hasContent("before\n");
  }

  @Test
  void aNewFileIsNotLeftHalfWritten() {
    assertThatThrownBy(() -> sink(WriteMode.CREATE_NEW).process(streamed()))
        .hasMessage("the source went away");

    assertThat(directory.resolve("out.txt")).doesNotExist();
  }

  @Test
  void anOverwriteKeepsTheOldFile() throws IOException {
    Path file = Files.writeString(directory.resolve("out.txt"), "old");

    assertThatThrownBy(() -> sink(WriteMode.OVERWRITE).process(streamed()))
        .hasMessage("the source went away");

    assertThat(file).hasContent("old");
    try (var left = Files.list(directory)) {
      assertThat(left).containsExactly(file);
    }
  }

  @Test
  void aWholeStreamIsWrittenWhole() throws Exception {
    byte[] bytes = new byte[300 * 1024 + 3];
    java.util.Arrays.fill(bytes, (byte) 'y');

    sink(WriteMode.APPEND)
        .process(
            Message.of(new java.io.ByteArrayInputStream(bytes))
                .withAttribute("fileName", "out.txt"));

    assertThat(Files.readAllBytes(directory.resolve("out.txt"))).isEqualTo(bytes);
  }
}
