package io.sluice.core.router;

import io.sluice.core.FlowError;
import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.expression.Expression;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Scope;
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
   * Whether the body is only CPU_LITE processors that are no scopes: every strategy runs those in
   * place, one after the other, on the thread that holds the message, so the loop runs them itself
   * (see {@link Loop#inline}) instead of asking the flow to run a chain per element.
   */
  private final boolean inline;

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
    this.inline =
        this.processors.stream()
            .allMatch(p -> !(p instanceof Scope) && p.processingType() == ProcessingType.CPU_LITE);
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
      if (inline) {
        return inline(current);
      }
      Object element;
      try {
        element = batchSize == 1 ? elements.next() : batch();
      } catch (RuntimeException e) {
        Iteration.close(source);
        throw e;
      }
      counter++;
      Message item = current.withPayloadAndVariable(element, counterVariable, counter);
      if (counter == 1) {
        item = item.withVariable(rootVariable, root);
      }
      return Step.run(processors, item, this);
    }

    /**
     * Runs the body over the elements on this thread, as the flow would: each element's message
     * made as in {@link #next}, each processor given what the one before returned. What the flow
     * does with an error is left to it: a failing processor, a null it returned or a failing
     * iterator hands the flow a chain that fails with that error at once, on the message the
     * failure met, so the loop's {@link #failed} and the flow's error handling see what they would
     * have without this shortcut. An interrupted thread (a route being cancelled) hands the element
     * to the flow, which checks for cancellation before each processor.
     */
    private Step inline(Message current) {
      Message result = current;
      while (true) {
        Object element;
        try {
          element = batchSize == 1 ? elements.next() : batch();
        } catch (RuntimeException e) {
          if (counter == 0) {
            Iteration.close(source);
            throw e;
          }
          return Step.run(List.of(new Rethrow(e, Foreach.this.name())), result, this);
        }
        counter++;
        Message item = result.withPayloadAndVariable(element, counterVariable, counter);
        if (counter == 1) {
          item = item.withVariable(rootVariable, root);
        }
        if (Thread.currentThread().isInterrupted()) {
          return Step.run(processors, item, this);
        }
        for (Processor processor : processors) {
          Message in = item;
          try {
            item = processor.process(in);
          } catch (Throwable e) {
            return Step.run(List.of(new Rethrow(e, processor.name())), in, this);
          }
          if (item == null) {
            return Step.run(
                List.of(new Rethrow(Rethrow.returnedNull(processor), processor.name())), in, this);
          }
        }
        result = item;
        boolean more;
        try {
          more = elements.hasNext();
        } catch (RuntimeException e) {
          return Step.run(List.of(new Rethrow(e, Foreach.this.name())), result, this);
        }
        if (!more) {
          Iteration.close(source);
          return Step.done(restored(result));
        }
      }
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

  /**
   * A processor that throws an error the loop met while running its body itself, so that the flow
   * fails the message there as if the processor it came from had thrown it in the flow.
   */
  private record Rethrow(Throwable error, String at) implements Processor {

    /** The failing processor's name, so an error names where it happened as it did before. */
    @Override
    public String name() {
      return at;
    }

    /** What the flow says of a processor that returned null. */
    static SluiceException returnedNull(Processor processor) {
      return new SluiceException(
          "Processor '"
              + processor.name()
              + "' returned null; a processor must return a message"
              + " (return the one it was given to leave it unchanged)");
    }

    @Override
    public Message process(Message message) throws Exception {
      if (error instanceof Exception e) {
        throw e;
      }
      if (error instanceof Error e) {
        throw e;
      }
      throw new SluiceException(error.toString(), error);
    }

    @Override
    public ProcessingType processingType() {
      return ProcessingType.CPU_LITE;
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
