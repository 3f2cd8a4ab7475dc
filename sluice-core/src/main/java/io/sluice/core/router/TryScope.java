package io.sluice.core.router;

import io.sluice.core.FlowError;
import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.flow.OnError;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Step;
import io.sluice.core.transaction.Transaction;
import io.sluice.core.transaction.TransactionalResource;
import io.sluice.core.transaction.TransactionalResources;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The {@code try} scope: runs its processors with error handlers of its own. An error they take
 * ends the scope as the branch says ({@code onErrorContinue}: the flow goes on with the branch's
 * result; {@code onErrorPropagate}: the error goes on after the branch), so an error can be handled
 * without ending the flow; an error none takes goes on out of the scope.
 *
 * <p>With {@code transaction} (a data source's name) every database operation on that data source
 * inside the scope runs in one transaction, begun when the message enters (lazily: no connection
 * until the first operation) and carried by the message: committed when the processors completed,
 * rolled back when they failed, before the error branches run (outside it), and rolled back when
 * the message is cut short inside the scope. A try on a data source the message is in a transaction
 * of already joins that transaction: the outer try commits.
 */
public final class TryScope extends RouterBase {

  private final List<Processor> processors;
  private final List<OnError> errorHandler;
  private final Step.Then then;
  private final TransactionalResources resources;
  private final String transaction;
  private volatile TransactionalResource resource;

  /** A try named {@code name} (null: {@code try}) running these processors with these branches. */
  public TryScope(String name, List<Processor> processors, List<OnError> errorHandler) {
    this(name, processors, errorHandler, null, null);
  }

  /**
   * As above, running the processors in a transaction of the resource named {@code transaction}
   * (null: none), found among {@code resources} when the scope starts.
   */
  public TryScope(
      String name,
      List<Processor> processors,
      List<OnError> errorHandler,
      TransactionalResources resources,
      String transaction) {
    super("try", name, chains(processors, errorHandler));
    this.processors = List.copyOf(processors);
    this.errorHandler = List.copyOf(errorHandler);
    this.then = OnError.handledBy(this.errorHandler);
    if (transaction != null) {
      Objects.requireNonNull(resources, "resources");
    }
    this.resources = resources;
    this.transaction = transaction;
  }

  private static List<List<Processor>> chains(
      List<Processor> processors, List<OnError> errorHandler) {
    List<List<Processor>> all = new ArrayList<>();
    all.add(processors);
    errorHandler.forEach(branch -> all.add(branch.processors()));
    return all;
  }

  @Override
  public void start(FlowContext flowContext) throws Exception {
    if (transaction != null) {
      TransactionalResource found = resources.find(transaction);
      if (found == null) {
        throw new SluiceException(
            describe()
                + ": transaction names data source '"
                + transaction
                + "', which is not defined; the data sources: "
                + resources.names());
      }
      found.acquire(flowContext.meterRegistry());
      resource = found;
    }
    super.start(flowContext);
  }

  @Override
  public void stop() {
    super.stop();
    TransactionalResource held = resource;
    if (held != null) {
      resource = null;
      held.release();
    }
  }

  @Override
  public Step enter(Message message) {
    if (transaction == null) {
      return Step.run(processors, message, then);
    }
    Transaction outer = message.transaction(transaction);
    if (outer != null && !outer.ended()) {
      return Step.run(processors, message, then); // joins it: the outer scope commits
    }
    TransactionalResource open = resource;
    if (open == null) {
      throw new IllegalStateException(describe() + " is not started");
    }
    Transaction begun = open.begin();
    return Step.run(processors, message.withTransaction(begun), new Transactional(begun));
  }

  /** What ends a message's transaction with its chain. */
  private final class Transactional implements Step.Then {
    private final Transaction transaction;

    Transactional(Transaction transaction) {
      this.transaction = transaction;
    }

    @Override
    public Step completed(Message result) {
      transaction.commit(); // a failed commit is the scope's error
      return Step.done(result.withoutTransaction(transaction));
    }

    @Override
    public Step failed(FlowError error, Message message) throws Exception {
      transaction.rollback();
      return then.failed(error, message.withoutTransaction(transaction));
    }

    @Override
    public void abandoned(Throwable reason) {
      transaction.rollback();
    }
  }

  /** The data source whose transaction the processors run in, or null. */
  public String transaction() {
    return transaction;
  }

  /** What runs. */
  public List<Processor> processors() {
    return processors;
  }

  /** The scope's error branches. */
  public List<OnError> errorHandler() {
    return errorHandler;
  }

  /** A builder for a try named {@code name} (null: {@code try}). */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Builds a {@link TryScope}. */
  public static final class Builder {
    private final String name;
    private final List<Processor> processors = new ArrayList<>();
    private final List<OnError> errorHandler = new ArrayList<>();
    private TransactionalResources resources;
    private String transaction;

    private Builder(String name) {
      this.name = name;
    }

    /** Appends processors. */
    public Builder processors(Processor... values) {
      processors.addAll(List.of(values));
      return this;
    }

    /** Appends an error branch. */
    public Builder onError(OnError branch) {
      errorHandler.add(branch);
      return this;
    }

    /**
     * Runs the processors in a transaction of {@code resource} (a data source's: {@code
     * dataSources.transactional("orders")}).
     */
    public Builder transaction(TransactionalResource resource) {
      TransactionalResources one = new TransactionalResources();
      one.register(resource);
      this.resources = one;
      this.transaction = resource.name();
      return this;
    }

    /** The try. */
    public TryScope build() {
      return new TryScope(name, processors, errorHandler, resources, transaction);
    }
  }
}
