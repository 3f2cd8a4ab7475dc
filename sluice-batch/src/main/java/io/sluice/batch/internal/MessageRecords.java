package io.sluice.batch.internal;

import io.sluice.batch.BatchInput;
import io.sluice.batch.BatchInputException;
import io.sluice.batch.BatchRecord;
import io.sluice.core.SluiceException;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.stream.BaseStream;

/**
 * The records of one start of a job whose input is the message (Mule's {@code batch:execute}): the
 * elements of its payload, a list or any {@link Iterable}, an array, an {@link Iterator} or a
 * stream; position i is element i − 1. {@link #stored()} completes once every record is stored and
 * the input is marked read (or fails if the run ended before), so that the flow goes on, and its
 * source acknowledges the message, only once nothing of it can be lost.
 */
public final class MessageRecords implements BatchInput {

  private final Object payload;
  private final CompletableFuture<Long> stored = new CompletableFuture<>();
  private boolean opened;

  private MessageRecords(Object payload) {
    this.payload = payload;
  }

  /**
   * The records of {@code payload}; a {@link SluiceException} naming job {@code job} and the
   * payload's type when it holds no list of records.
   */
  public static MessageRecords of(String job, Object payload) {
    if (payload instanceof Iterable<?>
        || payload instanceof Object[]
        || payload instanceof Iterator<?>
        || payload instanceof BaseStream<?, ?>) {
      return new MessageRecords(payload);
    }
    throw new SluiceException(
        "Batch job '"
            + job
            + "' takes its records from the message that starts it, and this message's payload"
            + " is "
            + (payload == null ? "null" : "a " + payload.getClass().getName())
            + ": it must be a list of records (an Iterable, an array, an Iterator or a Stream),"
            + " each element a record. Split or parse the payload into a list before"
            + " batch-execute");
  }

  /** Completes with the number of records once all are stored; fails if the run ended first. */
  public CompletableFuture<Long> stored() {
    return stored;
  }

  /**
   * The run's loading ended: with every record stored and the input marked read ({@code all}), or
   * not (the run failed or was stopped first, {@code count} records stored).
   */
  public void loadEnded(boolean all, long count) {
    if (all) {
      stored.complete(count);
    } else {
      stored.completeExceptionally(
          new BatchInputException(
              "The batch run ended after storing "
                  + count
                  + " record(s) of the message, before its last; a start with the same key loads"
                  + " the rest",
              null));
    }
  }

  @Override
  public String describe() {
    return "the payload of the message that started it (" + payload.getClass().getName() + ")";
  }

  @Override
  public OptionalLong expectedRecords() {
    return switch (payload) {
      case Collection<?> c -> OptionalLong.of(c.size());
      case Object[] a -> OptionalLong.of(a.length);
      default -> OptionalLong.empty();
    };
  }

  @Override
  public synchronized Reader open(long position) {
    if (opened && !(payload instanceof Iterable<?> || payload instanceof Object[])) {
      throw new BatchInputException(
          "The records of this message (a " + payload.getClass().getName() + ") were read once",
          null);
    }
    opened = true;
    Iterator<?> elements =
        switch (payload) {
          case Iterable<?> i -> i.iterator();
          case Object[] a -> Arrays.asList(a).iterator();
          case Iterator<?> i -> i;
          case BaseStream<?, ?> s -> s.iterator();
          default -> throw new IllegalStateException("checked by of()");
        };
    // A resumed instance stored the first records already: the same message, redelivered, skips
    // them.
    long skipped = 0;
    while (skipped < position && elements.hasNext()) {
      elements.next();
      skipped++;
    }
    long start = skipped;
    return new Reader() {
      private long next = start;

      @Override
      public BatchRecord next() {
        if (!elements.hasNext()) {
          return null;
        }
        Object value = elements.next();
        return BatchRecord.of(++next, value);
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
