package io.sluice.core.file;

import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

/**
 * A JVM of its own (started with a small heap by {@link AHugeFileFlowsInConstantMemoryTest}): one
 * flow whose file source reads {@code args[0]}, streamed when {@code args[1]} is true, and whose
 * processor reads the payload to its end. Prints {@code read N crc C} and exits 0 when the file
 * went through, prints the failure and exits 2 when the source failed it.
 */
public final class StreamedFileChild {

  private StreamedFileChild() {}

  /** Runs the flow until the one file went through or failed. */
  public static void main(String[] args) {
    Path directory = Path.of(args[0]);
    boolean streaming = Boolean.parseBoolean(args[1]);
    AtomicLong read = new AtomicLong(-1);
    AtomicLong crc = new AtomicLong();
    Application app =
        Application.builder()
            .flow(
                Flow.builder("huge")
                    .source(
                        new FileSource(
                            FileSourceConfig.builder(directory).streaming(streaming).build()))
                    .processor(
                        Processor.of(
                            ProcessingType.BLOCKING_IO,
                            message -> {
                              CRC32 sum = new CRC32();
                              long count = 0;
                              byte[] buffer = new byte[64 * 1024];
                              InputStream in = (InputStream) message.payload();
                              for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                                sum.update(buffer, 0, n);
                                count += n;
                              }
                              crc.set(sum.getValue());
                              read.set(count);
                              return message;
                            }))
                    .build())
            .build();
    app.start();
    await()
        .atMost(Duration.ofMinutes(5))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> read.get() >= 0 || failed(app) > 0);
    app.stop();
    if (read.get() >= 0) {
      System.out.println("read " + read.get() + " crc " + crc.get());
      System.exit(0);
    }
    System.out.println("failed");
    System.exit(2);
  }

  private static double failed(Application app) {
    return app.meterRegistry().get("sluice.file.failed").counter().count();
  }
}
