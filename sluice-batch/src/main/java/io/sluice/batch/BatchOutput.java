package io.sluice.batch;

import io.sluice.batch.internal.CsvOutput;
import io.sluice.core.store.Require;
import java.nio.file.Path;
import java.util.List;

/**
 * A text file a batch job writes its records to, one line per record, in input order and exactly
 * once across crashes and resumes. After its last step, a block's successful records (those no step
 * failed) are written as lines; the block leaves the store in the same commit that records how many
 * bytes of the file are written. A resumed run first cuts the file back to that many bytes (a crash
 * between a write and its commit leaves lines no commit counts: their blocks run their last step
 * again and write them once more), so each line is in the file once, in the order of the input. The
 * file is forced to the disk before each commit, so a power loss, like a killed process, loses
 * nothing a commit counted.
 *
 * <p>A new instance replaces the file; the file is complete when the instance completes. A record
 * the output cannot turn into a line (a missing column) fails, at {@link BatchRecord#OUTPUT}.
 */
public interface BatchOutput {

  /** The file it writes. */
  Path file();

  /** What it writes, for messages and the job's definition fingerprint. */
  String describe();

  /** What comes before the records (a header line with its line end), or the empty string. */
  String header();

  /**
   * The line of a record whose payload is {@code payload}, with its line end; an {@link
   * IllegalArgumentException} saying why when the payload cannot be written.
   */
  String line(Object payload);

  /**
   * A CSV file (UTF-8, comma separated, lines ended by {@code \n}) whose first line names {@code
   * columns}; each record is a line of their values. A payload that is a map gives each column's
   * value by its name (a missing key fails the record; other keys are left out); a list or array
   * gives the values in order (as many as there are columns); any other payload is the one value of
   * a one-column file. A value is written as its text ({@code null} as an empty field, a {@code
   * BigDecimal} without exponent), quoted as RFC 4180 says when it holds a comma, a quote or a line
   * end. What {@link BatchInput#csv} reads back is what was written, but for a value holding a line
   * end (that input reads a line at a time).
   */
  static BatchOutput csv(Path file, List<String> columns) {
    return CsvOutput.of(Require.nonNull(file, "file"), Require.nonNull(columns, "columns"));
  }
}
