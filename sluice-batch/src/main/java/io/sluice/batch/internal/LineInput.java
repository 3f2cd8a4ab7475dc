package io.sluice.batch.internal;

import io.sluice.batch.BatchInput;
import io.sluice.batch.BatchInputException;
import io.sluice.batch.BatchRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A UTF-8 text file read a line at a time, each line one record whose position is its line number;
 * a position to resume from is a count of lines after the {@link #headerLines()}.
 */
abstract class LineInput implements BatchInput {

  private final Path file;

  LineInput(Path file) {
    this.file = file;
  }

  /** How many lines come before the records (a header). */
  int headerLines() {
    return 0;
  }

  /** Reads the header lines, once per opening, before the records. */
  void header(BufferedReader reader) throws IOException {
    for (int i = 0; i < headerLines(); i++) {
      reader.readLine();
    }
  }

  /** The record of line {@code number}: a failed one when it cannot be parsed; null to skip it. */
  abstract BatchRecord parse(long number, String line);

  @Override
  public String describe() {
    return file.toString();
  }

  @Override
  public String positionName() {
    return "line";
  }

  /** The message of {@code e}: its class and message, for a failed record. */
  static String describe(Throwable e) {
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }

  @Override
  public Reader open(long position) {
    BufferedReader reader;
    try {
      reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new BatchInputException(
          "The batch input " + file.toAbsolutePath() + " does not exist", e);
    } catch (IOException e) {
      throw new BatchInputException(
          "Could not open the batch input " + file.toAbsolutePath() + ": " + describe(e), e);
    }
    try {
      header(reader);
      for (long skipped = 0; skipped < position; skipped++) {
        if (reader.readLine() == null) {
          break;
        }
      }
    } catch (IOException | UncheckedIOException e) {
      close(reader);
      throw new BatchInputException(
          "Could not read the batch input " + file.toAbsolutePath() + ": " + describe(e), e);
    }
    return new Reader() {
      private long lines = position;

      @Override
      public BatchRecord next() {
        try {
          for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            lines++;
            BatchRecord record = parse(headerLines() + lines, line);
            if (record != null) {
              return record;
            }
          }
          return null;
        } catch (IOException | UncheckedIOException e) {
          throw new BatchInputException(
              "Could not read the batch input "
                  + file.toAbsolutePath()
                  + " after line "
                  + (headerLines() + lines)
                  + ": "
                  + describe(e),
              e);
        }
      }

      @Override
      public long position() {
        return lines;
      }

      @Override
      public void close() {
        LineInput.close(reader);
      }
    };
  }

  private static void close(BufferedReader reader) {
    try {
      reader.close();
    } catch (IOException e) {
      // read only: nothing was written that closing could lose
    }
  }
}
