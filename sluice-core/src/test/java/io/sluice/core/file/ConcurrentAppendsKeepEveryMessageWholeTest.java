package io.sluice.core.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eight threads of two flows (two file sinks) append 20 KB lines to one file at the same time:
 * every line is in the file whole, none torn by another's bytes.
 */
class ConcurrentAppendsKeepEveryMessageWholeTest {

  private static final int THREADS = 8;
  private static final int LINES_PER_THREAD = 60;
  private static final int LINE_LENGTH = 20 * 1024;

  @TempDir Path out;

  @Test
  void linesOfTwentyKilobytesFromEightThreadsAreEachAppendedWhole() throws Exception {
    Template name = Template.parse("fileName", "all.log");
    List<FileWriteProcessor> flows =
        List.of(
            new FileWriteProcessor(out, name, WriteMode.APPEND),
            new FileWriteProcessor(out, name, WriteMode.APPEND));
    CountDownLatch go = new CountDownLatch(1);
    List<Future<?>> writers = new ArrayList<>();
    try (ExecutorService threads = Executors.newFixedThreadPool(THREADS)) {
      for (int t = 0; t < THREADS; t++) {
        FileWriteProcessor sink = flows.get(t % 2);
        int writer = t;
        writers.add(
            threads.submit(
                () -> {
                  go.await();
                  for (int i = 0; i < LINES_PER_THREAD; i++) {
                    sink.process(Message.of(line(writer, i), Map.of()));
                  }
                  return null;
                }));
      }
      go.countDown();
      for (Future<?> writer : writers) {
        writer.get();
      }
    }

    List<String> lines = Files.readAllLines(out.resolve("all.log"), StandardCharsets.UTF_8);
    Set<String> expected = new HashSet<>();
    for (int t = 0; t < THREADS; t++) {
      for (int i = 0; i < LINES_PER_THREAD; i++) {
        expected.add(line(t, i).stripTrailing());
      }
    }
    List<String> torn = lines.stream().filter(line -> !expected.contains(line)).toList();
    assertThat(torn)
        .as("torn lines (first 80 chars)")
        .extracting(l -> l.substring(0, Math.min(80, l.length())))
        .isEmpty();
    assertThat(lines).hasSize(THREADS * LINES_PER_THREAD);
    assertThat(new HashSet<>(lines)).isEqualTo(expected);
  }

  /** A line of 20 KB naming its writer and number, each character telling them apart too. */
  private static String line(int writer, int number) {
    String head = "writer " + writer + " line " + number + ": ";
    char fill = (char) ('a' + (writer * LINES_PER_THREAD + number) % 26);
    return head + String.valueOf(fill).repeat(LINE_LENGTH - head.length() - 1) + "\n";
  }
}
