package io.sluice.core.router;

import io.sluice.core.FlowError;
import io.sluice.core.Message;
import io.sluice.core.expression.Expression;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Step;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The {@code foreach} scope, as Mule users know it: its processors run once per element of a
 * collection (the payload, or what {@code collection} gives: a collection, an array, an iterator, a
 * stream, a streaming reader), each time with the element as payload, the {@code counter} variable
 * (from 1) and the {@code rootMessage} variable (the message as it entered). With a batch size
 * above one each run gets a list of up to that many elements. Variables set inside are kept from
 * one element to the next and after the loop; the payload and attributes are the original ones
 * again after it. Elements are read one at a time, so a streamed input of any length runs in
 * constant memory; what they came from is closed when the loop ends or fails.
 */
public final class Foreach extends RouterBase {

  /** Elements per run unless told. */
  public static final int DEFAULT_BATCH_SIZE = 1;

  /** The variable holding the run's number unless told. */
  public static final String DEFAULT_COUNTER_VARIABLE = "counter";

  /** The variable holding the message as it entered unless told. */
  public static final String DEFAULT_ROOT_VARIABLE = "rootMessage";

  private final Expression collection;
  private final int batchSize;
  private final String counterVariable;
  private final String rootVariable;
  private final List<Processor> processors;

  /**
   * A foreach.
   *
   * @param name for errors and meters (null: {@code foreach})
   * @param collection what to go over, or null for the payload
   * @param batchSize elements per run, at least 1
   * @param counterVariable the variable holding the run's number, from 1
   * @param rootVariable the variable holding the message as it entered
   * @param processors what runs for each element
   */
  public Foreach(
      String name,
      Expression collection,
      int batchSize,
      String counterVariable,
      String rootVariable,
      List<Processor> processors) {
    super("foreach", name, List.of(processors));
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be at least 1, was " + batchSize);
    }
    this.collection = collection;
    this.batchSize = batchSize;
    this.counterVariable = counterVariable;
    this.rootVariable = rootVariable;
    this.processors = List.copyOf(processors);
  }

  /** A foreach over the payload, one element per run, with Mule's variable names. */
  public static Foreach of(Processor... processors) {
    return new Foreach(
        null,
        null,
        DEFAULT_BATCH_SIZE,
        DEFAULT_COUNTER_VARIABLE,
        DEFAULT_ROOT_VARIABLE,
        List.of(processors));
  }

  @Override
  public Step enter(Message message) throws Exception {
    Object source = collection == null ? message.payload() : evaluate(collection, message);
    Iterator<?> elements;
    try {
      elements = Iteration.of(source);
      if (!elements.hasNext()) {
        Iteration.close(source);
        return Step.done(message);
      }
    } catch (RuntimeException e) {
      Iteration.close(source);
      throw e;
    }
    return new Loop(message, source, elements).next(message);
  }

  /** One message's loop: where it is in the elements, and the message to restore after it. */
  private final class Loop implements Step.Then {
    private final Message root;
    private final Object source;
    private final Iterator<?> elements;
    private long counter;

    Loop(Message root, Object source, Iterator<?> elements) {
      this.root = root;
      this.source = source;
      this.elements = elements;
    }

    Step next(Message current) {
      Object element;
      try {
        element = batchSize == 1 ? elements.next() : batch();
      } catch (RuntimeException e) {
        Iteration.close(source);
        throw e;
      }
      counter++;
      Message item = current.withPayload(element).withVariable(counterVariable, counter);
      if (counter == 1) {
        item = item.withVariable(rootVariable, root);
      }
      return Step.run(processors, item, this);
    }

    private List<Object> batch() {
      List<Object> batch = new ArrayList<>(batchSize);
      while (batch.size() < batchSize && elements.hasNext()) {
        batch.add(elements.next());
      }
      return batch;
    }

    @Override
    public Step completed(Message result) {
      boolean more;
      try {
        more = elements.hasNext();
      } catch (RuntimeException e) {
        Iteration.close(source);
        throw e;
      }
      if (more) {
        return next(result);
      }
      Iteration.close(source);
      return Step.done(restored(result));
    }

    @Override
    public Step failed(FlowError error, Message message) throws Exception {
      Iteration.close(source);
      throw Step.rethrow(error.cause());
    }

    /** The result with the original payload and attributes, and the loop's variables as before. */
    private Message restored(Message result) {
      return result
          .withPayload(root.payload())
          .withAttributes(root.attributes())
          .withVariable(counterVariable, root.variable(counterVariable))
          .withVariable(rootVariable, root.variable(rootVariable));
    }
  }

  /** What runs for each element. */
  public List<Processor> processors() {
    return processors;
  }

  /** A builder for a foreach named {@code name} (null: {@code foreach}). */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Builds a {@link Foreach}; unset, it goes over the payload, one element a run. */
  public static final class Builder {
    private final String name;
    private Expression collection;
    private int batchSize = DEFAULT_BATCH_SIZE;
    private String counterVariable = DEFAULT_COUNTER_VARIABLE;
    private String rootVariable = DEFAULT_ROOT_VARIABLE;
    private final List<Processor> processors = new ArrayList<>();

    private Builder(String name) {
      this.name = name;
    }

    /** What to go over: a JEXL expression ({@code payload.lines}). */
    public Builder collection(String expression) {
      this.collection = Expression.compile("collection", expression);
      return this;
    }

    /** Elements per run. */
    public Builder batchSize(int value) {
      this.batchSize = value;
      return this;
    }

    /** The variable holding the run's number. */
    public Builder counterVariable(String value) {
      this.counterVariable = value;
      return this;
    }

    /** The variable holding the message as it entered. */
    public Builder rootMessageVariable(String value) {
      this.rootVariable = value;
      return this;
    }

    /** Appends processors run per element. */
    public Builder processors(Processor... values) {
      processors.addAll(List.of(values));
      return this;
    }

    /** The foreach. */
    public Foreach build() {
      return new Foreach(name, collection, batchSize, counterVariable, rootVariable, processors);
    }
  }
}
