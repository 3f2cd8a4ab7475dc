package io.sluice.batch;

import io.sluice.batch.internal.CsvInput;
import io.sluice.batch.internal.GeneratorInput;
import io.sluice.batch.internal.JsonLinesInput;
import io.sluice.batch.internal.MessageInput;
import io.sluice.batch.internal.SourceInput;
import io.sluice.core.spi.Source;
import io.sluice.core.store.Require;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.function.LongFunction;

/**
 * Where a batch job's records come from. An input is read from a position (how many records were
 * loaded before a crash) so that a resumed instance loads each record once.
 */
public interface BatchInput {

  /** Reads records one after the other. Not thread-safe: the loader alone reads. */
  interface Reader extends AutoCloseable {
    /**
     * The next record, or null at the end. A record that cannot be parsed is returned failed at
     * {@link BatchRecord#INPUT}, with its position (a malformed CSV line is a failed record, not a
     * failed job); a {@link BatchInputException} when the input itself cannot be read.
     */
    BatchRecord next();

    /** The position to read from again to get the records after the last one returned. */
    long position();

    /**
     * Asked after {@link #next} returned null: whether the input ended, or only has no record at
     * the moment (a source whose sender waits for its records to be acknowledged), in which case
     * the loader stores the block it has, smaller than the block size, and reads on.
     */
    default boolean ended() {
      return true;
    }

    /** Every record returned so far is stored: the loader committed its block. */
    default void stored() {}

    @Override
    void close();
  }

  /** What the input reads, for messages and the instance list (a path, a generator). */
  String describe();

  /**
   * What a position counts, for messages: {@code line} for a file read by lines, else {@code
   * record}.
   */
  default String positionName() {
    return "record";
  }

  /** How many records the input holds, when it knows without reading them (a generator). */
  default OptionalLong expectedRecords() {
    return OptionalLong.empty();
  }

  /**
   * Opens the input after its first {@code position} records; a {@link BatchInputException} naming
   * the input when it does not exist or cannot be read.
   */
  Reader open(long position);

  /**
   * A CSV file (UTF-8, comma separated, RFC 4180 quotes within a line) whose first line names the
   * columns: each further line is a record whose payload is a map of column to text, in column
   * order; its position is its line number. A line with another number of fields, or an unclosed
   * quote, is a failed record.
   */
  static BatchInput csv(Path file) {
    return new CsvInput(Require.nonNull(file, "file"));
  }

  /**
   * A file of JSON values, one per line (UTF-8): each line is a record whose payload is the value
   * read (a map, a list, a string, a number or a boolean); a line that is not JSON is a failed
   * record; blank lines are skipped.
   */
  static BatchInput jsonLines(Path file) {
    return new JsonLinesInput(Require.nonNull(file, "file"));
  }

  /**
   * The messages a flow source submits (a file poller, a VM queue listener, a scheduler), each a
   * record whose payload is the message's; the input ends once the source submitted nothing for
   * {@code quiet}. A message completes, so that its source acknowledges it (the queue acks it, the
   * file is moved), only once its block is stored; after a crash the source hands over again what
   * it had not seen acknowledged, so a record may be loaded twice, never lost. The source runs on
   * the application's services under the name {@code batch.<job>.input}; its position counts the
   * records loaded.
   */
  static BatchInput source(Source source, Duration quiet) {
    return new SourceInput(Require.nonNull(source, "source"), Require.nonNull(quiet, "quiet"));
  }

  /**
   * The records of the message that starts the job (Mule's {@code batch:execute} payload): the
   * elements of its payload, a list or any {@code Iterable}, an array, an {@code Iterator} or a
   * stream, position i being element i − 1. Only a {@link BatchLauncher} start from a flow can
   * start such a job; it waits until every record is stored before the flow goes on.
   */
  static BatchInput message() {
    return MessageInput.INSTANCE;
  }

  /** {@code count} records whose payloads {@code record} makes from their index (0 and up). */
  static BatchInput generator(long count, LongFunction<Object> record) {
    return new GeneratorInput(count, Require.nonNull(record, "record"));
  }
}
