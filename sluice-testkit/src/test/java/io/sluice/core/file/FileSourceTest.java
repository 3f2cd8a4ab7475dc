package io.sluice.core.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.FlowBusyException;
import io.sluice.core.FlowStartException;
import io.sluice.core.Message;
import io.sluice.testkit.RecordingSourceContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file source's polling and acknowledgement rules, with the flow played by the test. */
class FileSourceTest {

  private static final Duration POLL = Duration.ofSeconds(5);

  @TempDir Path root;

  private final RecordingSourceContext flow =
      new RecordingSourceContext(Instant.parse("2030-03-30T23:30:00Z"), ZoneId.of("Europe/Paris"));
  private FileSource source;

  @AfterEach
  void stopSource() {
    if (source != null) {
      source.stop();
    }
  }

  private Path in() throws IOException {
    return Files.createDirectories(root.resolve("in"));
  }

  /** A file last modified an hour before the clock, so no minAge holds it back. */
  private Path file(String name, String content) throws IOException {
    return file(name, content, flow.manualClock().instant().minus(Duration.ofHours(1)));
  }

  private Path file(String name, String content, Instant lastModified) throws IOException {
    Path path = Files.writeString(in().resolve(name), content);
    Files.setLastModifiedTime(path, FileTime.from(lastModified));
    return path;
  }

  private FileSourceConfig.Builder config() throws IOException {
    return FileSourceConfig.builder(in()).pollingFrequency(POLL);
  }

  private void start(FileSourceConfig config) {
    source = new FileSource(config);
    source.start(flow);
    flow.manualTimer().runDue();
  }

  private void nextPoll() {
    flow.manualTimer().advance(POLL);
  }

  private static String text(Message message) {
    return new String(message.payload(byte[].class), StandardCharsets.UTF_8);
  }

  private List<Object> fileNames() {
    return flow.submissions().stream().map(s -> s.message().attribute("fileName")).toList();
  }

  @Test
  void fileIsDeletedOnlyAfterItsFlowSucceeded() throws IOException {
    Path a = file("a.txt", "hello");
    Instant modified = Files.getLastModifiedTime(a).toInstant();

    start(config().build());

    assertThat(flow.submissions()).hasSize(1);
    Message message = flow.last().message();
    assertThat(text(message)).isEqualTo("hello");
    assertThat(message.attributes())
        .containsEntry("fileName", "a.txt")
        .containsEntry("path", a.toAbsolutePath().toString())
        .containsEntry("size", 5L)
        .containsEntry("lastModified", modified);
    assertThat(a).exists();

    flow.last().succeed();

    assertThat(a).doesNotExist();
    assertThat(flow.count("sluice.file.read")).isEqualTo(1);
    assertThat(flow.count("sluice.file.failed")).isZero();
  }

  @Test
  void fileIsMovedOnlyAfterItsFlowSucceeded() throws IOException {
    Path done = root.resolve("done");
    Path a = file("a.txt", "new");
    start(config().afterRead(AfterRead.MOVE).moveTo(done).build());
    assertThat(done).isDirectory();
    Files.writeString(done.resolve("a.txt"), "an older a.txt, replaced");
    assertThat(a).exists();

    flow.last().succeed();

    assertThat(a).doesNotExist();
    assertThat(done.resolve("a.txt")).hasContent("new");
  }

  @Test
  void failedFileStaysAndIsReadAgainAtTheNextPoll() throws IOException {
    Path a = file("a.txt", "payload");
    start(config().build());

    flow.last().fail(new IllegalStateException("boom"));

    assertThat(a).exists();
    assertThat(flow.count("sluice.file.failed")).isEqualTo(1);

    nextPoll();

    assertThat(fileNames()).containsExactly("a.txt", "a.txt");
    flow.last().succeed();
    assertThat(a).doesNotExist();
  }

  @Test
  void fileTheFlowRefusedStaysAndIsNotCountedAsAFailure() throws IOException {
    Path a = file("a.txt", "payload");
    start(config().build());

    flow.last().fail(new FlowBusyException("test-flow", "auto", "maxInFlight 1 reached"));

    assertThat(a).exists();
    assertThat(flow.count("sluice.file.failed")).isZero();
    assertThat(flow.count("sluice.file.refused")).isEqualTo(1);

    nextPoll();

    assertThat(fileNames()).containsExactly("a.txt", "a.txt");
  }

  @Test
  void fileStillInItsFlowIsNotReadAgain() throws IOException {
    file("a.txt", "payload");
    start(config().build());

    nextPoll();
    nextPoll();

    assertThat(fileNames()).containsExactly("a.txt");
  }

  @Test
  void missingDirectoryFailsStartNamingIt() {
    Path missing = root.resolve("nowhere");
    source = new FileSource(FileSourceConfig.builder(missing).build());

    assertThatThrownBy(() -> source.start(flow))
        .isInstanceOf(FlowStartException.class)
        .hasMessageContaining("Input directory '" + missing.toAbsolutePath() + "' does not exist")
        .hasMessageContaining("create it or fix the file source's 'directory'");
    assertThat(flow.manualTimer().pending()).isEmpty();
  }

  @Test
  void directoryThatIsAFileFailsStartNamingIt() throws IOException {
    Path notADirectory = Files.writeString(root.resolve("plain"), "x");
    source = new FileSource(FileSourceConfig.builder(notADirectory).build());

    assertThatThrownBy(() -> source.start(flow))
        .isInstanceOf(FlowStartException.class)
        .hasMessageContaining("'" + notADirectory.toAbsolutePath() + "' is not a directory");
  }

  @Test
  void freshFileIsLeftUntilItIsMinAgeOld() throws IOException {
    Instant now = flow.manualClock().instant();
    file("fresh.txt", "still being written?", now.minusSeconds(4));
    start(config().minAge(Duration.ofSeconds(10)).build());

    assertThat(flow.submissions()).isEmpty();

    nextPoll(); // 9 s old

    assertThat(flow.submissions()).isEmpty();

    nextPoll(); // 14 s old

    assertThat(fileNames()).containsExactly("fresh.txt");
  }

  @Test
  void onlyRegularVisibleFilesMatchingThePatternAreRead() throws IOException {
    file("a.csv", "a");
    file("b.txt", "b");
    file(".hidden.csv", "temporary");
    Files.createDirectories(in().resolve("dir.csv"));

    start(config().pattern("*.csv").build());

    assertThat(fileNames()).containsExactly("a.csv");
  }

  @Test
  void noMoreThanMaxConcurrentFilesAreInTheFlowAtOnce() throws IOException {
    Instant hourAgo = flow.manualClock().instant().minus(Duration.ofHours(1));
    for (int i = 0; i < 5; i++) {
      file("f" + i + ".txt", "x", hourAgo.plusSeconds(i));
    }
    start(config().maxConcurrentFiles(2).build());

    assertThat(fileNames()).containsExactly("f0.txt", "f1.txt");
    nextPoll();
    assertThat(flow.submissions()).hasSize(2);

    flow.submissions().get(0).succeed();
    nextPoll();

    assertThat(fileNames()).containsExactly("f0.txt", "f1.txt", "f2.txt");
  }

  @Test
  void aBacklogIsPolledAgainAsSoonAsAFileLeavesTheFlowNotAtTheNextPeriod() throws IOException {
    Instant hourAgo = flow.manualClock().instant().minus(Duration.ofHours(1));
    for (int i = 0; i < 5; i++) {
      file("f" + i + ".txt", "x", hourAgo.plusSeconds(i));
    }
    start(config().maxConcurrentFiles(2).build());

    flow.submissions().get(0).succeed();
    flow.manualTimer().runDue(); // the clock has not moved: only an immediate poll can run

    assertThat(fileNames()).containsExactly("f0.txt", "f1.txt", "f2.txt");
  }

  @Test
  void withoutABacklogAFinishedFileTriggersNoExtraPoll() throws IOException {
    file("only.txt", "x");
    start(config().maxConcurrentFiles(2).build());
    int pending = flow.manualTimer().pending().size();

    flow.last().succeed();

    assertThat(flow.manualTimer().pending()).hasSize(pending);
  }

  @Test
  void fileThatKeepsFailingDoesNotStarveTheOthers() throws IOException {
    Instant hourAgo = flow.manualClock().instant().minus(Duration.ofHours(1));
    file("poison.txt", "x", hourAgo);
    file("good.txt", "y", hourAgo.plusSeconds(1));
    start(config().maxConcurrentFiles(1).build());
    flow.last().fail(new IllegalArgumentException("cannot parse"));

    nextPoll();

    assertThat(fileNames()).containsExactly("poison.txt", "good.txt");
  }

  @Test
  void stopCancelsThePolling() throws IOException {
    start(config().build());
    assertThat(flow.manualTimer().pending()).hasSize(1);

    source.stop();
    file("late.txt", "x");
    nextPoll();

    assertThat(flow.manualTimer().pending()).isEmpty();
    assertThat(flow.submissions()).isEmpty();
  }

  @Test
  void fileInTheFlowWhenStoppedIsStillDeletedWhenItsFlowEnds() throws IOException {
    Path a = file("a.txt", "x");
    start(config().build());
    source.stop();

    flow.last().succeed();

    assertThat(a).doesNotExist();
  }
}
