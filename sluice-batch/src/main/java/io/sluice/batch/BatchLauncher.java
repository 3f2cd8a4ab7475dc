package io.sluice.batch;

import io.sluice.batch.internal.MessageInput;
import io.sluice.batch.internal.MessageRecords;
import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.app.Application;
import io.sluice.jobs.JobExecutorConfig;
import io.sluice.jobs.LeaseHolder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a configuration's batch jobs from inside its flows ({@link BatchExecuteProcessor}: Mule's
 * {@code batch:execute}), in the process that runs the flows, on the application's storage. It is
 * made with the jobs before the application exists and {@linkplain #bind bound} to it once built
 * ({@code sluice run} does so); a job's result can go to a flow of the application when the
 * instance ends.
 *
 * <p>One instance of a job with an input of its own runs at a time here: a second start while one
 * runs would read the same input again, so it is refused naming the running instance. A start
 * resumes the job's unfinished instance, if a crash or a stop left one with the same steps, rather
 * than begin a second one over the same input. A job whose input is the message takes its records
 * from the message that starts it; a key makes "the same input" explicit for any job: one instance
 * per key, ever. The starting message's variables are the instance's parameters (kept with it, so a
 * resumed instance has them): every record's message carries them as variables, and so does its
 * result on the way to the result flow. A start resumes only an unfinished instance started with
 * the same parameters.
 */
public final class BatchLauncher {

  private static final Logger LOG = LoggerFactory.getLogger(BatchLauncher.class);

  private final Map<String, BatchJob> jobs = new ConcurrentHashMap<>();
  private final Map<String, BatchEngine.Execution> running = new ConcurrentHashMap<>();
  private final Set<BatchEngine.Execution> started = ConcurrentHashMap.newKeySet();
  private volatile Application application;
  private volatile BatchEngine engine;

  /** Joins other nodes' instances on a shared store ({@link #joinOthers}); null until then. */
  private java.util.concurrent.ScheduledExecutorService joiner;

  /** The instances told to differ from this configuration, not to tell again every second. */
  private final Set<String> toldDiffers = ConcurrentHashMap.newKeySet();

  /** A launcher of no job yet, not yet bound to an application. */
  public BatchLauncher() {}

  /** A launcher of these jobs, not yet bound to an application. */
  public BatchLauncher(List<BatchJob> jobs) {
    add(jobs);
  }

  /** Adds jobs this launcher can start (a configuration's, once mapped). */
  public void add(List<BatchJob> more) {
    more.forEach(job -> jobs.put(job.name(), job));
  }

  /** Binds the launcher to {@code application}: its storage keeps the jobs' blocks. */
  public synchronized void bind(Application value) {
    this.application = value;
    this.engine = BatchEngine.of(value);
  }

  /**
   * Binds the launcher to {@code value}, whose runs on a shared store (PostgreSQL) claim their
   * blocks under the node lease {@code shared} gives (the job executor's, once it runs), or a lease
   * of their own with the settings {@code node} gives ({@link BatchEngine#of(Application, Supplier,
   * Supplier)}).
   */
  public synchronized void bind(
      Application value, Supplier<LeaseHolder> shared, Supplier<JobExecutorConfig> node) {
    this.application = value;
    this.engine = BatchEngine.of(value, shared, node);
  }

  /**
   * On a shared store (PostgreSQL), looks every {@code every} for instances of this launcher's jobs
   * that other nodes run and that have blocks waiting for a node, and joins them: a job a flow of
   * one node started runs on every node of the configuration ({@code sluice run} starts this once
   * the application runs). Does nothing on one process's store. {@link #stopAll} ends it.
   */
  public synchronized void joinOthers(Duration every) {
    BatchEngine bound = engine;
    if (bound == null || !bound.shared() || joiner != null) {
      return;
    }
    joiner =
        java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("sluice-batch-joiner").daemon(true).factory());
    joiner.scheduleWithFixedDelay(
        this::joinWaiting, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void joinWaiting() {
    BatchEngine bound = engine;
    for (BatchJob job : jobs.values()) {
      try {
        for (long id :
            bound.joinable(
                job,
                (instance, differs) -> {
                  if (toldDiffers.add(job.name() + "#" + instance)) {
                    LOG.warn(
                        "Batch job '{}' instance {} runs on other nodes with another"
                            + " configuration ({}); this node does not join it",
                        job.name(),
                        instance,
                        differs);
                  }
                })) {
          join(job, id);
        }
      } catch (RuntimeException e) {
        LOG.warn(
            "Batch job '{}': could not look for instances to join: {}", job.name(), e.toString());
      }
    }
  }

  private synchronized void join(BatchJob job, long id) {
    boolean ownInput = !(job.input() instanceof MessageInput);
    if (ownInput && running.containsKey(job.name())) {
      return;
    }
    BatchEngine.Execution execution = engine.join(job, id);
    LOG.info("Batch job '{}': this node joins instance {}, which other nodes run", job.name(), id);
    if (ownInput) {
      running.put(job.name(), execution);
      execution.result().whenComplete((result, error) -> running.remove(job.name(), execution));
    }
    follow(job.name(), execution, null, Map.of());
  }

  /** Whether a job of this name can be started. */
  public boolean knows(String job) {
    return jobs.containsKey(job);
  }

  /**
   * Starts an instance of {@code job} and returns it at once; when it ends, its result goes to the
   * flow {@code resultFlow} (null: nowhere) as the payload of a message.
   *
   * @throws SluiceException when the job is unknown, the launcher is not bound, or an instance of
   *     the job runs already
   */
  public BatchEngine.Execution start(String job, String resultFlow) {
    return start(job, resultFlow, null, null);
  }

  /**
   * Starts an instance of {@code job} for {@code message} and {@code key} (null: none); when it
   * ends, its result goes to the flow {@code resultFlow} (null: nowhere) as the payload of a
   * message.
   *
   * <p>A job whose input is the message ({@link BatchInput#message()}) takes the elements of the
   * message's payload as its records, and this returns once they are all stored, so that nothing
   * the flow accepted is lost with the process; instances for different messages run side by side.
   * A job with an input of its own returns at once, and runs one instance at a time.
   *
   * <p>With a key, the job has at most one instance per key in the store: a start with a new key
   * begins one; with the key of an instance a crash or a stop left unfinished, it resumes that one
   * (the same message, delivered again, loads only the records not stored yet); with the key of an
   * instance that runs or ended, it is refused ({@link BatchStartRefusedException}).
   *
   * @throws SluiceException when the job is unknown, the launcher is not bound, the payload holds
   *     no records, the key was taken, or an instance of a job with its own input runs already
   */
  public BatchEngine.Execution start(String job, String resultFlow, Message message, String key) {
    BatchJob definition = jobs.get(job);
    if (definition == null) {
      throw new SluiceException(
          "There is no batch job '"
              + job
              + "' to start; the configuration has "
              + new java.util.TreeSet<>(jobs.keySet()));
    }
    BatchEngine bound = engine;
    if (bound == null) {
      throw new SluiceException(
          "Batch job '"
              + job
              + "' cannot start: its launcher is not bound to the application (sluice run binds"
              + " it; an embedding application calls BatchLauncher.bind(application))");
    }
    if (definition.input() instanceof MessageInput) {
      if (message == null) {
        throw new SluiceException(
            "Batch job '" + job + "' takes its records from a message: start it with one");
      }
      MessageRecords records = MessageRecords.of(job, message.payload());
      BatchJob run = definition.withInput(records);
      Map<String, Object> parameters = message.variables();
      BatchEngine.Execution execution =
          key == null ? bound.start(run, parameters) : bound.run(run, key, parameters);
      follow(job, execution, resultFlow, parameters);
      awaitStored(job, execution, records);
      return execution;
    }
    synchronized (this) {
      BatchEngine.Execution other = running.get(job);
      if (other != null) {
        throw new SluiceException(
            "Batch job '"
                + job
                + "' has instance "
                + other.instance()
                + " running; a second instance would read the same input ("
                + definition.input().describe()
                + ") again. Start it again once that one ended");
      }
      Map<String, Object> parameters = message == null ? Map.of() : message.variables();
      BatchEngine.Execution execution =
          key == null ? bound.run(definition, parameters) : bound.run(definition, key, parameters);
      running.put(job, execution);
      execution.result().whenComplete((result, error) -> running.remove(job, execution));
      follow(job, execution, resultFlow, parameters);
      return execution;
    }
  }

  /**
   * Resumes instance {@code instance} in this process, where it stopped, with its job of this
   * launcher's configuration and the parameters it was started with, and returns it at once (what
   * the console's resume button does in {@code sluice run}; {@code sluice batch resume} does the
   * same in a process of its own). The instance is resumed when it is {@link BatchState#STOPPED};
   * or loading or running in the store but not here, on an embedded SQLite store, which no other
   * process can be running it on (a process killed mid-run left it so). It is refused, changing
   * nothing, when there is no such instance, its job is not in the configuration or has other steps
   * or block size now, it ended ({@link BatchState#COMPLETED}, or {@link BatchState#FAILED}, which
   * is never resumed), it runs here already, another instance of its job with an input of its own
   * runs here, or, on PostgreSQL, it is loading or running in the store: another node may run it.
   * Its result goes nowhere; {@link #stopAll} stops it with the others.
   *
   * @throws BatchStartRefusedException naming the instance and why it was refused
   * @throws SluiceException when the launcher is not bound to an application
   */
  public BatchEngine.Execution resume(long instance) {
    BatchEngine bound = engine;
    if (bound == null) {
      throw new SluiceException(
          "Batch instance "
              + instance
              + " cannot be resumed: the launcher is not bound to the application (sluice run"
              + " binds it; an embedding application calls BatchLauncher.bind(application))");
    }
    BatchInstance at =
        bound
            .instance(instance)
            .orElseThrow(
                () ->
                    BatchStartRefusedException.resume(
                        null,
                        instance,
                        "there is no batch instance "
                            + instance
                            + " in "
                            + application.storage().describe()));
    BatchJob definition = jobs.get(at.job());
    if (definition == null) {
      throw BatchStartRefusedException.resume(
          at.job(),
          instance,
          "it belongs to batch job '"
              + at.job()
              + "', which the configuration does not declare; it has "
              + new java.util.TreeSet<>(jobs.keySet()));
    }
    boolean live = at.state() == BatchState.LOADING || at.state() == BatchState.RUNNING;
    if (live && !at.running() && !bound.storeOwned()) {
      throw BatchStartRefusedException.resume(
          at.job(),
          instance,
          "it is "
              + at.state()
              + " in "
              + application.storage().describe()
              + ", not in this process: another node runs it (sluice batch stop asks it to stop;"
              + " resume it here once it is STOPPED), or one was killed while it ran it (sluice"
              + " batch resume takes it up)");
    }
    synchronized (this) {
      boolean ownInput = !(definition.input() instanceof MessageInput);
      BatchEngine.Execution other = ownInput ? running.get(at.job()) : null;
      if (other != null && other.instance() != instance) {
        throw BatchStartRefusedException.resume(
            at.job(),
            instance,
            "instance "
                + other.instance()
                + " of its job runs here, and both would read its input ("
                + definition.input().describe()
                + "); resume it once that one ended");
      }
      BatchEngine.Execution execution =
          bound.resume(
              instance,
              definition,
              why -> BatchStartRefusedException.resume(at.job(), instance, why));
      if (ownInput) {
        running.put(at.job(), execution);
        execution.result().whenComplete((result, error) -> running.remove(at.job(), execution));
      }
      follow(at.job(), execution, null, Map.of());
      return execution;
    }
  }

  /** Keeps {@code execution} for {@link #stopAll} until it ends, then hands on its result. */
  private void follow(
      String job,
      BatchEngine.Execution execution,
      String resultFlow,
      Map<String, Object> parameters) {
    started.add(execution);
    execution
        .result()
        .whenComplete(
            (result, error) -> {
              started.remove(execution);
              if (error != null) {
                LOG.error("Batch job '{}' instance {} failed", job, execution.instance(), error);
              } else if (resultFlow != null) {
                deliver(job, execution.instance(), result, resultFlow, parameters);
              }
            });
  }

  /** Waits until the message's records are stored; the run's failure if it ended first. */
  private static void awaitStored(
      String job, BatchEngine.Execution execution, MessageRecords records) {
    try {
      CompletableFuture.anyOf(records.stored(), execution.result()).get();
      records.stored().getNow(null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      execution.stop();
      throw new SluiceException(
          "Interrupted while batch job '"
              + job
              + "' instance "
              + execution.instance()
              + " stored the message's records; it stops, and a start with the same key loads the"
              + " rest",
          e);
    } catch (ExecutionException | CompletionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new SluiceException(
          "Batch job '"
              + job
              + "' instance "
              + execution.instance()
              + " could not store the message's records: "
              + cause.getMessage(),
          cause);
    }
    if (!records.stored().isDone()) {
      // The run ended (its result came first) without saying so: it did not load them all.
      throw new SluiceException(
          "Batch job '"
              + job
              + "' instance "
              + execution.instance()
              + " ended before it stored the message's records");
    }
  }

  private void deliver(
      String job, long instance, BatchResult result, String flow, Map<String, Object> parameters) {
    application
        .send(flow, Message.of(result).withVariables(parameters))
        .whenComplete(
            (done, error) -> {
              if (error != null) {
                LOG.warn(
                    "The result of batch job '{}' instance {} could not go through flow '{}': {}",
                    job,
                    instance,
                    flow,
                    error.toString());
              }
            });
  }

  /**
   * Asks every instance this launcher started and that still runs to stop (blocks in flight finish
   * their step; the next start of the job, or {@code sluice batch resume}, goes on from there), and
   * waits up to {@code timeout} for them to end; false when one had not.
   */
  public boolean stopAll(Duration timeout) throws InterruptedException {
    synchronized (this) {
      if (joiner != null) {
        joiner.shutdownNow();
      }
    }
    List<BatchEngine.Execution> stopping = List.copyOf(started);
    stopping.forEach(BatchEngine.Execution::stop);
    long deadline = System.nanoTime() + timeout.toNanos();
    for (BatchEngine.Execution execution : stopping) {
      try {
        execution.result().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        return false;
      } catch (ExecutionException e) {
        // It failed rather than stopped: logged where it ended.
      }
    }
    return true;
  }
}
