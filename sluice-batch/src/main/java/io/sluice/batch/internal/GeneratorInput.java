package io.sluice.batch.internal;

import io.sluice.batch.BatchInput;
import io.sluice.batch.BatchRecord;
import java.util.OptionalLong;
import java.util.function.LongFunction;

/** {@code count} generated records; position i is the record of index i − 1. */
public final class GeneratorInput implements BatchInput {

  private final long count;
  private final LongFunction<Object> record;

  /** {@code count} records made by {@code record} from their index. */
  public GeneratorInput(long count, LongFunction<Object> record) {
    if (count < 0) {
      throw new IllegalArgumentException("count must not be negative, was " + count);
    }
    this.count = count;
    this.record = record;
  }

  @Override
  public String describe() {
    return "generator of " + count + " records";
  }

  @Override
  public OptionalLong expectedRecords() {
    return OptionalLong.of(count);
  }

  @Override
  public Reader open(long position) {
    return new Reader() {
      private long next = position;

      @Override
      public BatchRecord next() {
        if (next >= count) {
          return null;
        }
        long index = next++;
        try {
          return BatchRecord.of(index + 1, record.apply(index));
        } catch (RuntimeException e) {
          return new BatchRecord(index + 1, null, BatchRecord.INPUT, LineInput.describe(e));
        }
      }

      @Override
      public long position() {
        return next;
      }

      @Override
      public void close() {}
    };
  }
}
