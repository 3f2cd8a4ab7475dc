package io.sluice.db;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.Backoff;
import io.sluice.core.ConfigProblems;
import io.sluice.core.FlowBusyException;
import io.sluice.core.FlowStartException;
import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.logging.RepeatedFailureLog;
import io.sluice.core.spi.Source;
import io.sluice.core.spi.SourceContext;
import io.sluice.core.spi.TimerService;
import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.db.internal.Watermarks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code db-poll}: a source that runs a query on a schedule and hands its rows to the flow, each
 * row a message (its payload a map by column label), or with {@code perRow: false} each page of
 * {@code pageSize} rows (a list of them). The attributes are {@code dataSource} and {@code
 * watermark} (the watermark column's value in the row, or the page's last row).
 *
 * <p>The watermark is the value of {@code watermarkColumn} in the last row handed over whose
 * message completed, and every message before it in the query's order too; the next poll binds it
 * to the query's {@code :watermark} ({@code WHERE id > :watermark ORDER BY id}). It is kept in the
 * application's store ({@code db-poll.<flow>}, key {@code watermark}) when a poll's messages have
 * all completed (or the first of them failed), so a restart resumes after the last row handed over;
 * a kill re-delivers at most the rows of the poll it cut (at least once).
 *
 * <p>A message that fails stops the poll: the rows after it are not handed over (those already in
 * the flow finish), the watermark stays before it, and the next poll, after the backoff, hands it
 * over again. After {@code maxDeliveries} deliveries of the same failing row the watermark moves
 * past it, as a persistent queue dead-letters a message: the row stays in its table, its watermark
 * and last error are kept in the store under {@code dead.<watermark>} and logged. A failure of type
 * {@code DB:CONNECTIVITY} (the flow's database away) is not counted: it would give up on rows only
 * because a database was down. A message the flow refuses because it is full ({@link
 * FlowBusyException}) is backpressure: no failure, the poll stops there and the next one comes
 * after {@code frequency}.
 *
 * <p>Each poll reads at most {@code maxRows} rows, and one more that says whether the poll cut a
 * run of rows sharing a watermark (held back for the next poll then), ({@code fetchSize} per round
 * trip) into memory, gives the connection back, then hands them over; when a poll was full the next
 * one starts at once (a backlog drains as fast as the flow takes it), otherwise after {@code
 * frequency}. A query that fails (the database away: {@code DB:CONNECTIVITY}) pauses polling: it is
 * logged once whole, then summarised (a {@link RepeatedFailureLog}), and retried after a growing
 * wait ({@link Backoff}, from {@code frequency} doubling to a minute at most, or {@code frequency}
 * when longer); when it answers again polling goes on from the watermark kept, so no row is
 * skipped.
 *
 * <p>Metrics, tagged {@code flow}: {@code sluice.db.poll.polls} (queries run), {@code
 * sluice.db.poll.rows} (rows handed over, each delivery), {@code sluice.db.poll.failed} (queries
 * and messages that failed), {@code sluice.db.poll.refused} (messages the flow refused), {@code
 * sluice.db.poll.dead} (rows given up after {@code maxDeliveries}) and the gauge {@code
 * sluice.db.poll.watermark} (the watermark when it is a number; NaN otherwise).
 */
public final class DbPollSource implements Source {

  private static final Logger LOG = LoggerFactory.getLogger(DbPollSource.class);

  /** The key of the watermark in the store. */
  public static final String WATERMARK_KEY = "watermark";

  /** The longest wait after failures, unless {@code frequency} is longer. */
  static final Duration MAX_BACKOFF = Duration.ofMinutes(1);

  /** How long a stop waits for a poll handing rows over to finish and keep its watermark. */
  static final Duration HAND_OVER_WAIT = Duration.ofSeconds(5);

  private final DataSources dataSources;
  private final DbPollConfig config;
  private final DbSelectProcessor select;
  private final Backoff.Failures failures;
  private final Object schedule = new Object();
  private final Object state = new Object();
  private final ReentrantLock handing = new ReentrantLock();
  private SourceContext context;
  private ObjectStore store;
  private volatile Object watermark;
  private String saved;
  private boolean running;
  private TimerService.Cancellable nextPoll;
  private Counter polls;
  private Counter rowsHanded;
  private Counter failed;
  private Counter refused;
  private RepeatedFailureLog queryFailures;
  private FailingRows failingRows;

  /** A poll as {@code config} says, on a data source of {@code dataSources}. */
  public DbPollSource(DataSources dataSources, DbPollConfig config) {
    this.dataSources = Objects.requireNonNull(dataSources, "dataSources");
    this.config = Objects.requireNonNull(config, "config");
    this.select =
        new DbSelectProcessor(
            "db-poll",
            dataSources,
            config.statement(),
            false,
            Math.min(config.fetchSize(), config.maxRows()),
            // One row more than a poll hands over: it says whether the poll cut a run of rows
            // sharing the last watermark.
            config.maxRows() + 1,
            // A TIMESTAMP without zone is kept as what it is, a local date-time: as an instant it
            // would shift in a process of another time zone.
            config.watermarkColumn());
    Duration cap = config.frequency().compareTo(MAX_BACKOFF) > 0 ? config.frequency() : MAX_BACKOFF;
    this.failures = Backoff.doubling(config.frequency(), cap).failures();
  }

  /** The store a flow's poll keeps its watermark in. */
  public static String storeName(String flow) {
    return "db-poll." + flow;
  }

  /**
   * Reads the watermark kept in the store (the initial one when there is none), opens the data
   * source's pool and schedules the first poll at once on the flow's timer.
   *
   * @throws FlowStartException when the kept watermark cannot be read
   */
  @Override
  public void start(SourceContext flowContext) {
    this.context = flowContext;
    String flow = flowContext.flowName();
    // Without a watermark there is nothing to keep: the application's store is not opened for it.
    store =
        config.watermarkColumn() == null
            ? null
            : flowContext.storage().objectStore(storeName(flow), ObjectStoreOptions.DEFAULTS);
    Object kept = store == null ? null : kept(flow);
    watermark = kept != null ? kept : config.initialWatermark();
    saved = kept == null ? null : Watermarks.encode(kept);
    MeterRegistry registry = flowContext.meterRegistry();
    polls = counter(registry, "sluice.db.poll.polls", "Queries a db-poll ran");
    rowsHanded = counter(registry, "sluice.db.poll.rows", "Rows handed to the flow, each time");
    failed = counter(registry, "sluice.db.poll.failed", "Queries and messages that failed");
    refused = counter(registry, "sluice.db.poll.refused", "Messages the flow refused (full)");
    Gauge.builder("sluice.db.poll.watermark", this, s -> Watermarks.gauge(s.watermark))
        .tag("flow", flow)
        .description("The watermark of a db-poll, when it is a number")
        .register(registry);
    queryFailures =
        new RepeatedFailureLog(
            LOG,
            "db-poll of flow '" + flow + "' querying data source '" + config.dataSource() + "'",
            flowContext.clock());
    failingRows = new FailingRows(LOG, flowContext, config.maxDeliveries(), store);
    select.start(flowContext);
    LOG.info(
        "db-poll of flow '{}' queries data source '{}' every {}, at most {} rows a poll ({} per"
            + " round trip), {}; watermark {}",
        flow,
        config.dataSource(),
        ConfigProblems.text(config.frequency()),
        config.maxRows(),
        Math.min(config.fetchSize(), config.maxRows()),
        config.perRow() ? "a message per row" : "a message per " + config.pageSize() + " rows",
        config.watermarkColumn() == null
            ? "none"
            : "'"
                + config.watermarkColumn()
                + "' from "
                + watermark
                + (kept != null ? " (kept in store '" + store.name() + "')" : " (initial)"));
    synchronized (schedule) {
      running = true;
      nextPoll = flowContext.timer().schedule(Duration.ZERO, this::poll);
    }
  }

  /**
   * Cancels the next poll, waits up to {@link #HAND_OVER_WAIT} for a poll handing rows over to stop
   * at the next row and keep its watermark, and gives the pool back; messages in the flow finish.
   */
  @Override
  public void stop() {
    synchronized (schedule) {
      if (!running) {
        return;
      }
      running = false;
      if (nextPoll != null) {
        nextPoll.cancel();
        nextPoll = null;
      }
    }
    // A flow that finishes its messages on the thread handing them over (CPU_LITE under auto)
    // has counted them out before the poll keeps its watermark: wait for that, so that the
    // store, closed once the flow drained, still takes it. The hand-over stops at the next row.
    try {
      if (handing.tryLock(HAND_OVER_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        handing.unlock();
      } else {
        LOG.warn(
            "db-poll of flow '{}' still handing rows over after {}; stopping without waiting:"
                + " a restart may hand over again the rows of that poll",
            context.flowName(),
            ConfigProblems.text(HAND_OVER_WAIT));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    select.stop();
  }

  @Override
  public String name() {
    return "db-poll(" + config.dataSource() + ")";
  }

  /** What it polls. */
  public DbPollConfig config() {
    return config;
  }

  /** The watermark the next poll binds: the last handed over whose message completed. */
  public Object watermark() {
    return watermark;
  }

  /** The data sources it takes its own from. */
  public DataSources dataSources() {
    return dataSources;
  }

  private Object kept(String flow) {
    Optional<Object> value = store.get(WATERMARK_KEY);
    if (value.isEmpty()) {
      return null;
    }
    try {
      return Watermarks.decode(String.valueOf(value.get()));
    } catch (IllegalArgumentException e) {
      throw new FlowStartException(
          flow,
          "the watermark kept in store '"
              + store.name()
              + "' ("
              + value.get()
              + ") cannot be read: "
              + e.getMessage()
              + "; remove its key '"
              + WATERMARK_KEY
              + "' to start again from initialWatermark");
    }
  }

  private Counter counter(MeterRegistry registry, String name, String description) {
    return Counter.builder(name)
        .tag("flow", context.flowName())
        .description(description)
        .register(registry);
  }

  private boolean isRunning() {
    synchronized (schedule) {
      return running;
    }
  }

  private void scheduleNext(Duration wait) {
    synchronized (schedule) {
      if (running) {
        nextPoll = context.timer().schedule(wait, this::poll);
      }
    }
  }

  /** One poll: reads the rows after the watermark, then hands them over in order. */
  private void poll() {
    if (!isRunning()) {
      return;
    }
    Object from = watermark;
    List<Unit> units;
    boolean full;
    try {
      List<Map<String, Object>> rows = read(from);
      polls.increment();
      full = rows.size() > config.maxRows();
      if (full) {
        rows = withoutACutRun(rows);
      }
      units = units(rows);
    } catch (RuntimeException e) {
      if (!isRunning()) {
        LOG.debug(
            "db-poll of flow '{}' stopped during a poll: {}", context.flowName(), e.toString());
        return;
      }
      failed.increment();
      Duration wait;
      synchronized (state) {
        wait = failures.next();
      }
      queryFailures.failed(
          "db-poll of flow '{}' failed querying data source '{}'; polling pauses and tries again"
              + " in {} from watermark {}: {}",
          context.flowName(),
          config.dataSource(),
          ConfigProblems.text(wait),
          from,
          FailingRows.describe(e));
      scheduleNext(wait);
      return;
    }
    queryFailures.recovered();
    if (units.isEmpty()) {
      synchronized (state) {
        failures.reset();
      }
      scheduleNext(config.frequency());
      return;
    }
    handing.lock();
    try {
      if (isRunning()) {
        new Round(units, full).handOver();
      }
    } finally {
      handing.unlock();
    }
  }

  @SuppressWarnings("unchecked")
  private List<Map<String, Object>> read(Object from) {
    Map<String, Object> attributes = from == null ? Map.of() : Map.of(DbPollConfig.WATERMARK, from);
    return (List<Map<String, Object>>) select.process(Message.of(null, attributes)).payload();
  }

  /**
   * The first {@code maxRows} of the rows a full poll read (one more than that), less the run of
   * rows sharing the last one's watermark when the row after them shares it too (a timestamp): the
   * next poll, binding the watermark before that run, reads it whole, so none of it is skipped. A
   * run longer than {@code maxRows} cannot be read whole: it is handed over as read, and said, as
   * the rows of it beyond {@code maxRows} are then skipped.
   */
  private List<Map<String, Object>> withoutACutRun(List<Map<String, Object>> read) {
    List<Map<String, Object>> rows = read.subList(0, config.maxRows());
    if (config.watermarkColumn() == null) {
      return rows;
    }
    Object last = watermarkOf(rows.getLast());
    if (!Objects.equals(watermarkOf(read.getLast()), last)) {
      return rows;
    }
    int end = rows.size();
    while (end > 0 && Objects.equals(watermarkOf(rows.get(end - 1)), last)) {
      end--;
    }
    if (end > 0) {
      return rows.subList(0, end);
    }
    LOG.warn(
        "db-poll of flow '{}': more than maxRows ({}) rows share the watermark {}; those beyond"
            + " the first {} are skipped. Raise maxRows above the longest run of one value, or"
            + " poll a unique column",
        context.flowName(),
        config.maxRows(),
        last,
        config.maxRows());
    return rows;
  }

  /** The rows as messages, each with the watermark of its (last) row. */
  private List<Unit> units(List<Map<String, Object>> rows) {
    int size = config.perRow() ? 1 : config.pageSize();
    List<Unit> units = new ArrayList<>((rows.size() + size - 1) / size);
    for (int start = 0; start < rows.size(); start += size) {
      List<Map<String, Object>> page = rows.subList(start, Math.min(rows.size(), start + size));
      Object mark = config.watermarkColumn() == null ? null : watermarkOf(page.getLast());
      Object payload = config.perRow() ? page.getFirst() : List.copyOf(page);
      units.add(new Unit(payload, page.size(), mark));
    }
    return units;
  }

  private Object watermarkOf(Map<String, Object> row) {
    String column = config.watermarkColumn();
    Object value;
    if (row.containsKey(column)) {
      value = row.get(column);
    } else {
      String label =
          row.keySet().stream()
              .filter(column::equalsIgnoreCase)
              .findFirst()
              .orElseThrow(
                  () ->
                      new SluiceException(
                          "the rows of the query have no column '"
                              + column
                              + "' (watermarkColumn); their columns: "
                              + row.keySet()
                              + ". Select it, or fix watermarkColumn"));
      value = row.get(label);
    }
    if (value != null && !Watermarks.keepable(value)) {
      throw new SluiceException(
          "the watermark column '"
              + column
              + "' holds a "
              + value.getClass().getName()
              + ", which cannot be a watermark; choose a number, text, date or timestamp column");
    }
    return value == null ? null : Watermarks.normal(value);
  }

  /** A message to hand over: its payload, how many rows it holds, its watermark (or null). */
  private record Unit(Object payload, int rows, Object watermark) {}

  private enum Outcome {
    DONE,
    FAILED,
    REFUSED
  }

  /** The hand-over of one poll's messages, and what follows once they all finished. */
  private final class Round {
    private final List<Unit> units;
    private final boolean full;
    private final Outcome[] outcomes;
    private final Throwable[] errors;
    private final AtomicInteger pending = new AtomicInteger(1);
    private volatile boolean halted;
    private int submitted;

    Round(List<Unit> units, boolean full) {
      this.units = units;
      this.full = full;
      this.outcomes = new Outcome[units.size()];
      this.errors = new Throwable[units.size()];
    }

    /** Submits the messages in order until one fails or is refused, or the source stops. */
    void handOver() {
      int i = 0;
      for (; i < units.size() && !halted && isRunning(); i++) {
        Unit unit = units.get(i);
        Map<String, Object> attributes =
            unit.watermark() == null
                ? Map.of("dataSource", config.dataSource())
                : Map.of("dataSource", config.dataSource(), "watermark", unit.watermark());
        pending.incrementAndGet();
        rowsHanded.increment(unit.rows());
        CompletableFuture<Message> result;
        try {
          result = context.submit(Message.of(unit.payload(), attributes));
        } catch (RuntimeException e) {
          result = CompletableFuture.failedFuture(e);
        }
        int index = i;
        result.whenComplete((done, error) -> completed(index, error));
      }
      submitted = i;
      if (pending.decrementAndGet() == 0) {
        finish();
      }
    }

    private void completed(int index, Throwable error) {
      Throwable cause =
          error instanceof CompletionException && error.getCause() != null
              ? error.getCause()
              : error;
      if (cause == null) {
        outcomes[index] = Outcome.DONE;
      } else {
        halted = true;
        errors[index] = cause;
        boolean busy = cause instanceof FlowBusyException;
        (busy ? refused : failed).increment();
        outcomes[index] = busy ? Outcome.REFUSED : Outcome.FAILED;
      }
      if (pending.decrementAndGet() == 0) {
        finish();
      }
    }

    /** Moves the watermark over the messages that completed in order, keeps it, polls again. */
    private void finish() {
      // Whatever happens here, polling goes on: a poll that ends without scheduling the next one
      // would stop the source without a word.
      Duration wait = config.frequency();
      try {
        wait = settle();
      } finally {
        scheduleNext(wait);
      }
    }

    private Duration settle() {
      Duration wait;
      synchronized (state) {
        Object mark = watermark;
        int done = 0;
        while (done < submitted) {
          Outcome outcome = outcomes[done];
          if (outcome == Outcome.FAILED
              && failingRows.givenUp(units.get(done).watermark(), errors[done])) {
            outcome = Outcome.DONE;
          }
          if (outcome != Outcome.DONE) {
            break;
          }
          mark =
              units.get(done).watermark() == null
                  ? mark
                  : Watermarks.later(mark, units.get(done).watermark());
          done++;
        }
        watermark = mark;
        keep(mark);
        Outcome stoppedAt = done < submitted ? outcomes[done] : null;
        if (stoppedAt == Outcome.FAILED) {
          wait = failures.next();
        } else if (stoppedAt == Outcome.REFUSED) {
          wait = config.frequency();
        } else {
          failures.reset();
          failingRows.recovered();
          wait = full || done < units.size() ? Duration.ZERO : config.frequency();
        }
      }
      return wait;
    }

    /** Puts the watermark in the store unless it is there already; a failure is tried again. */
    private void keep(Object mark) {
      if (mark == null || store == null) {
        return;
      }
      String text = Watermarks.encode(mark);
      if (text.equals(saved)) {
        return;
      }
      try {
        store.put(WATERMARK_KEY, text);
        saved = text;
      } catch (RuntimeException e) {
        queryFailures.failed(
            "db-poll of flow '{}' could not keep its watermark {} in store '{}'; a restart would"
                + " hand over again the rows after the one kept: {}",
            context.flowName(),
            mark,
            store.name(),
            e.toString());
      }
    }
  }
}
