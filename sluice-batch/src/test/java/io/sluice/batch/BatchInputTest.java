package io.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The inputs: records with their positions, bad lines as failed records, resuming, bad files. */
class BatchInputTest {

  @TempDir Path dir;

  private static List<BatchRecord> readAll(BatchInput input, long from) {
    List<BatchRecord> records = new ArrayList<>();
    try (BatchInput.Reader reader = input.open(from)) {
      for (BatchRecord r = reader.next(); r != null; r = reader.next()) {
        records.add(r);
      }
    }
    return records;
  }

  private Path file(String name, String text) throws Exception {
    return Files.writeString(dir.resolve(name), text);
  }

  @Test
  void csvLinesAreMapsByColumnAndABadLineIsAFailedRecordWithItsLineNumber() throws Exception {
    Path csv =
        file(
            "people.csv",
            "id,name,city\n"
                + "1,Ada,London\n"
                + "2,\"Hopper, Grace\",\"New \"\"York\"\"\"\n"
                + "3,Alan\n"
                + "4,\"Knuth,Stanford\n"
                + "5,Lin,\n");

    List<BatchRecord> records = readAll(BatchInput.csv(csv), 0);

    assertThat(records).extracting(BatchRecord::position).containsExactly(2L, 3L, 4L, 5L, 6L);
    assertThat(records.get(0).payload())
        .isEqualTo(Map.of("id", "1", "name", "Ada", "city", "London"));
    assertThat(records.get(1).payload())
        .isEqualTo(Map.of("id", "2", "name", "Hopper, Grace", "city", "New \"York\""));
    assertThat(records.get(2).failedAt()).isEqualTo(BatchRecord.INPUT);
    assertThat(records.get(2).error()).isEqualTo("line 4 has 2 field(s), the header names 3");
    assertThat(records.get(3).error()).isEqualTo("line 5 has a quote that is not closed");
    assertThat(records.get(4).payload()).isEqualTo(Map.of("id", "5", "name", "Lin", "city", ""));
    assertThat(records).filteredOn(BatchRecord::failed).hasSize(2);
  }

  @Test
  void anInputResumesAfterThePositionItGaveAndEndsWithNull() throws Exception {
    Path csv = file("n.csv", "n\n1\n2\n3\n4\n");
    BatchInput input = BatchInput.csv(csv);
    long position;
    try (BatchInput.Reader reader = input.open(0)) {
      reader.next();
      reader.next();
      position = reader.position();
    }

    assertThat(position).isEqualTo(2);
    assertThat(readAll(input, position))
        .extracting(r -> (Object) ((Map<?, ?>) r.payload()).get("n"))
        .containsExactly("3", "4");
    assertThat(readAll(input, 4)).isEmpty();
    assertThat(readAll(BatchInput.generator(5, i -> i * 10), 3))
        .extracting(BatchRecord::position, BatchRecord::payload)
        .containsExactly(tuple(4L, 30L), tuple(5L, 40L));
  }

  @Test
  void jsonLinesAreValuesAndALineThatIsNotJsonIsAFailedRecord() throws Exception {
    Path lines = file("e.jsonl", "{\"a\": 1}\n\n[1, 2]\n{oops\n\"text\"\n");

    List<BatchRecord> records = readAll(BatchInput.jsonLines(lines), 0);

    assertThat(records).extracting(BatchRecord::position).containsExactly(1L, 3L, 4L, 5L);
    assertThat(records.get(0).payload()).isEqualTo(Map.of("a", 1));
    assertThat(records.get(1).payload()).isEqualTo(List.of(1, 2));
    assertThat(records.get(2).failed()).isTrue();
    assertThat(records.get(2).error()).startsWith("line 4 is not JSON: ");
    assertThat(records.get(3).payload()).isEqualTo("text");
  }

  @Test
  void anInputThatDoesNotExistOrHasNoHeaderIsAnErrorNamingIt() throws Exception {
    Path missing = dir.resolve("missing.csv");
    assertThatThrownBy(() -> BatchInput.csv(missing).open(0))
        .isInstanceOf(BatchInputException.class)
        .hasMessage("The batch input " + missing.toAbsolutePath() + " does not exist");
    Path empty = file("empty.csv", "");
    assertThatThrownBy(() -> BatchInput.csv(empty).open(0))
        .isInstanceOf(BatchInputException.class)
        .hasMessage(
            "The batch input "
                + empty.toAbsolutePath()
                + " has no header line naming its columns (line 1: the file is empty)");
  }
}
