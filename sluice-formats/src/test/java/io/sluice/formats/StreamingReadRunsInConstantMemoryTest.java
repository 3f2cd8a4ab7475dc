package io.sluice.formats;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.router.Foreach;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.StorageConfig;
import io.sluice.testkit.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Ten million rows of JSON and of CSV (about 450 MB and 200 MB of text) are iterated in a JVM of 32
 * MB of heap, by hand and by a flow's foreach over a streaming read: a reader that held the rows,
 * or the text, or a foreach that held them, would run out of memory.
 */
@Tag("crash")
class StreamingReadRunsInConstantMemoryTest {

  static final long ROWS = 10_000_000;

  @Test
  void tenMillionRowsAreIteratedInAThirtyTwoMegabyteHeap() throws Exception {
    List<String> command = ChildJvm.command(Child.class, String.valueOf(ROWS));
    command.add(1, "-Xmx32m");
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output;
    try (var in = child.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    assertThat(child.waitFor(5, TimeUnit.MINUTES)).isTrue();
    assertThat(output)
        .contains(
            "JSON " + ROWS + " rows",
            "CSV " + ROWS + " rows",
            "foreach JSON " + ROWS + " rows",
            "foreach CSV " + ROWS + " rows");
    assertThat(child.exitValue()).as(output).isZero();
  }

  /** Iterates both documents and prints how many rows each had. */
  public static final class Child {
    public static void main(String[] args) {
      long rows = Long.parseLong(args[0]);
      for (Format format : List.of(Format.JSON, Format.CSV)) {
        GeneratedDocument document =
            format == Format.JSON ? GeneratedDocument.jsonArray(rows) : GeneratedDocument.csv(rows);
        ReadProcessor read =
            new ReadProcessor(ReadConfig.builder().format(format).streaming(true).build());
        long count = 0;
        try (StreamedValues values =
            (StreamedValues) read.process(Message.of(document)).payload()) {
          while (values.hasNext()) {
            values.next();
            count++;
          }
        }
        System.out.println(
            format + " " + count + " rows, " + document.bytesRead() / (1024 * 1024) + " MB read");
      }
      for (Format format : List.of(Format.JSON, Format.CSV)) {
        GeneratedDocument document =
            format == Format.JSON ? GeneratedDocument.jsonArray(rows) : GeneratedDocument.csv(rows);
        long[] count = new long[1];
        Processor counting =
            Processor.of(
                ProcessingType.CPU_LITE,
                m -> {
                  count[0]++;
                  return m;
                });
        Flow flow =
            Flow.builder("rows")
                .processor(
                    new ReadProcessor(ReadConfig.builder().format(format).streaming(true).build()))
                .processor(Foreach.of(counting))
                .build();
        try (Application app =
            Application.builder().storage(StorageConfig.memory()).flow(flow).build()) {
          app.start();
          app.send("rows", Message.of(document)).join();
        }
        System.out.println("foreach " + format + " " + count[0] + " rows");
      }
    }
  }
}
