package io.sluice.batch.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.batch.BatchRecord;
import java.nio.file.Path;

/** A file of JSON values, one per line; blank lines are skipped. */
public final class JsonLinesInput extends LineInput {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The JSON lines of {@code file}. */
  public JsonLinesInput(Path file) {
    super(file);
  }

  @Override
  BatchRecord parse(long number, String line) {
    if (line.isBlank()) {
      return null;
    }
    try {
      return BatchRecord.of(number, JSON.readValue(line, Object.class));
    } catch (JsonProcessingException e) {
      return new BatchRecord(
          number,
          line,
          BatchRecord.INPUT,
          "line " + number + " is not JSON: " + e.getOriginalMessage());
    }
  }
}
