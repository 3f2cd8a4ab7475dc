package io.sluice.batch;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.spi.Processor;
import java.util.Arrays;
import java.util.List;

/**
 * Groups the records a step processed into lists handed to a sink in one go (a multi-row insert,
 * one file, one request), after the step's processors. A block moves past its step only once every
 * one of its records is in a group the sink took; a group the sink fails fails its records at that
 * step. The sink's message has the list of payloads as its payload and the variables {@code
 * instance} (the instance id) and {@code positions} (the records' input positions, in the same
 * order).
 *
 * <p>Groups are handed over <em>at least once</em>: a process killed after the sink took a group
 * but before its blocks moved on hands that group's records over again after the restart. Make the
 * sink idempotent by keying what it writes on {@code instance} and {@code positions} (an upsert, or
 * an insert that ignores a key it has).
 */
public final class Aggregator {

  private final int size;
  private final List<Processor> sink;

  private Aggregator(int size, List<Processor> sink) {
    this.size = size;
    this.sink = sink;
  }

  /** Groups of {@code size} records (the last group of a run may be smaller). */
  public static Aggregator size(int size, Processor... sink) {
    if (size < 1) {
      throw new ConfigurationException(
          ConfigProblem.of("aggregator.size", size, "must be at least 1"));
    }
    return new Aggregator(size, checked(sink));
  }

  /**
   * Groups as records come: processed records are handed over as soon as their block's step is
   * done, at most a block's worth at a time, so nothing waits for a group to fill.
   */
  public static Aggregator streaming(Processor... sink) {
    return new Aggregator(0, checked(sink));
  }

  private static List<Processor> checked(Processor... sink) {
    if (sink == null || sink.length == 0 || Arrays.stream(sink).anyMatch(p -> p == null)) {
      throw new ConfigurationException(
          ConfigProblem.of("aggregator.sink", null, "needs at least one processor, none null"));
    }
    return List.of(sink);
  }

  /** The group size, or 0 when streaming. */
  public int size() {
    return size;
  }

  /** Whether groups are handed over as records come rather than at a fixed size. */
  public boolean streaming() {
    return size == 0;
  }

  /** The processors a group goes through. */
  public List<Processor> sink() {
    return sink;
  }

  @Override
  public String toString() {
    return streaming() ? "streaming aggregator" : "aggregator of " + size;
  }
}
