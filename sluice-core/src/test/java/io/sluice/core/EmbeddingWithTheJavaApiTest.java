package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.expression.Template;
import io.sluice.core.file.AfterRead;
import io.sluice.core.file.FileSource;
import io.sluice.core.file.FileSourceConfig;
import io.sluice.core.file.FileWriteProcessor;
import io.sluice.core.file.WriteMode;
import io.sluice.core.flow.Flow;
import io.sluice.core.processor.LoggerProcessor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.event.Level;

/** The file-copy flow of examples/file-copy.yaml, built with the Java API (as in README.md). */
class EmbeddingWithTheJavaApiTest {

  @TempDir Path dir;

  @Test
  void theFileCopyFlowBuiltInJavaCopiesAndMovesEveryFile() throws Exception {
    Path in = Files.createDirectories(dir.resolve("in"));
    Path out = dir.resolve("out");
    Path done = dir.resolve("done");
    for (int i = 0; i < 10; i++) {
      Files.writeString(in.resolve("note-" + i + ".txt"), "note " + i);
    }

    ThreadingProfile profile = ThreadingProfile.builder().maxThreadsActive(4).maxQueue(100).build();
    Flow copy =
        Flow.builder("file-copy")
            .strategy(new ProcessingStrategy.Staged(profile, profile, profile))
            .source(
                new FileSource(
                    FileSourceConfig.builder(in)
                        .pattern("*.txt")
                        .pollingFrequency(Duration.ofMillis(50))
                        .afterRead(AfterRead.MOVE)
                        .moveTo(done)
                        .build()))
            .processor(
                new LoggerProcessor(
                    Template.parse("message", "copying #[attributes.fileName]"), Level.INFO, null))
            .sink(
                new FileWriteProcessor(
                    out, Template.parse("fileName", "#[attributes.fileName]"), WriteMode.OVERWRITE))
            .build();

    try (Application app = Application.builder().flow(copy).build()) {
      app.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> count(done) == 10);
    }

    for (int i = 0; i < 10; i++) {
      assertThat(out.resolve("note-" + i + ".txt")).hasContent("note " + i);
    }
    assertThat(count(in)).isZero();
  }

  private static long count(Path directory) throws Exception {
    if (!Files.isDirectory(directory)) {
      return 0;
    }
    try (var files = Files.list(directory)) {
      return files.count();
    }
  }
}
