package io.sluice.core.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 2 GiB file through a flow in a JVM whose heap is 32 MB: streamed, it goes through whole; read
 * whole, it is refused with the reason instead of failing the process. The file is sparse, so the
 * test costs reading 2 GiB from the page cache, not writing it.
 */
@Tag("crash")
class AHugeFileFlowsInConstantMemoryTest {

  private static final long SIZE = 2L * 1024 * 1024 * 1024 + 5;

  @TempDir Path root;

  private Path hugeFile() throws IOException {
    Path in = Files.createDirectories(root.resolve("in"));
    Path file = in.resolve("huge.bin");
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.setLength(SIZE);
      raf.seek(SIZE - 5);
      raf.write("tail!".getBytes(StandardCharsets.US_ASCII));
    }
    return file;
  }

  private static String run(Path directory, boolean streaming, int expectedExit)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx32m");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(StreamedFileChild.class.getName());
    command.add(directory.toString());
    command.add(Boolean.toString(streaming));
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.waitFor(5, TimeUnit.MINUTES)).isTrue();
    assertThat(child.exitValue()).as(output).isEqualTo(expectedExit);
    return output;
  }

  private static long expectedCrc() {
    CRC32 crc = new CRC32();
    byte[] zeros = new byte[1 << 20];
    long left = SIZE - 5;
    while (left > 0) {
      int n = (int) Math.min(zeros.length, left);
      crc.update(zeros, 0, n);
      left -= n;
    }
    crc.update("tail!".getBytes(StandardCharsets.US_ASCII));
    return crc.getValue();
  }

  @Test
  void aStreamedTwoGigabyteFileGoesThroughWholeInA32MegabyteHeap() throws Exception {
    Path file = hugeFile();

    String output = run(file.getParent(), true, 0);

    assertThat(output).contains("read " + SIZE + " crc " + expectedCrc());
    assertThat(file).doesNotExist();
  }

  @Test
  void readWholeTheSameFileIsRefusedWithTheReasonAndStays() throws Exception {
    Path file = hugeFile();

    String output = run(file.getParent(), false, 2);

    assertThat(output)
        .contains("huge.bin")
        .contains("it is " + SIZE + " bytes, more than a file source reads whole")
        .contains("set streaming: true");
    assertThat(file).exists();
  }
}
