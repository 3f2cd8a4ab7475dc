package io.sluice.core.router;

import io.sluice.core.FlowError;
import io.sluice.core.Message;
import io.sluice.core.expression.Expression;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Step;
import java.lang.reflect.Array;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.BaseStream;

/**
 * The {@code split} scope, the first half of split and aggregate: each element of a collection (the
 * payload, or what {@code collection} gives) becomes a part, a message of its own that starts from
 * the original's variables and carries {@code correlationId} (the original message's id), {@code
 * correlationSequence} (from 1) and, when the collection's size is known before it is read, {@code
 * correlationGroupSize}; its processors run once per part (they send it on, to a queue or another
 * flow, where an {@link Aggregate} gathers the parts again). Parts are read one at a time, in
 * constant memory; the flow goes on with the original message.
 */
public final class Split extends RouterBase {

  /** The variable holding the original message's id. */
  public static final String CORRELATION_ID = "correlationId";

  /** The variable holding a part's number, from 1. */
  public static final String SEQUENCE = "correlationSequence";

  /** The variable holding how many parts there are, when known. */
  public static final String GROUP_SIZE = "correlationGroupSize";

  private final Expression collection;
  private final List<Processor> processors;

  /** A split named {@code name} (null: {@code split}) of {@code collection} (null: the payload). */
  public Split(String name, Expression collection, List<Processor> processors) {
    super("split", name, List.of(processors));
    this.collection = collection;
    this.processors = List.copyOf(processors);
  }

  @Override
  public Step enter(Message message) {
    Object source = collection == null ? message.payload() : evaluate(collection, message);
    Integer size = knownSize(source);
    Iterator<?> parts = Iteration.of(source);
    try {
      if (!parts.hasNext()) {
        Iteration.close(source);
        return Step.done(message);
      }
    } catch (RuntimeException e) {
      Iteration.close(source);
      throw e;
    }
    return new Parts(message, source, parts, size).next();
  }

  private static Integer knownSize(Object source) {
    return switch (source) {
      case null -> 0;
      case Collection<?> c -> c.size();
      case Map<?, ?> m -> m.size();
      case Object[] a -> a.length;
      default -> {
        if (source.getClass().isArray()) {
          yield Array.getLength(source);
        }
        if (source instanceof Iterator<?> || source instanceof Iterable<?>) {
          yield null;
        }
        yield source instanceof BaseStream<?, ?> ? null : 1;
      }
    };
  }

  /** One message's parts. */
  private final class Parts implements Step.Then {
    private final Message original;
    private final Object source;
    private final Iterator<?> parts;
    private final Integer size;
    private long sequence;

    Parts(Message original, Object source, Iterator<?> parts, Integer size) {
      this.original = original;
      this.source = source;
      this.parts = parts;
      this.size = size;
    }

    Step next() {
      Object part;
      try {
        part = parts.next();
      } catch (RuntimeException e) {
        Iteration.close(source);
        throw e;
      }
      sequence++;
      Message message =
          original
              .withPayload(part)
              .withVariable(CORRELATION_ID, original.id())
              .withVariable(SEQUENCE, sequence)
              .withVariable(GROUP_SIZE, size);
      return Step.run(processors, message, this);
    }

    @Override
    public Step completed(Message result) {
      boolean more;
      try {
        more = parts.hasNext();
      } catch (RuntimeException e) {
        Iteration.close(source);
        throw e;
      }
      if (more) {
        return next();
      }
      Iteration.close(source);
      return Step.done(original);
    }

    @Override
    public Step failed(FlowError error, Message message) throws Exception {
      Iteration.close(source);
      throw Step.rethrow(error.cause());
    }
  }

  /** What runs per part. */
  public List<Processor> processors() {
    return processors;
  }

  /**
   * A split named {@code name} (null: {@code split}) of the payload, its parts run through these.
   */
  public static Split of(String name, Processor... processors) {
    return new Split(name, null, List.of(processors));
  }
}
