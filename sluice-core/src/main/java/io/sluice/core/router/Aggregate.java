package io.sluice.core.router;

import io.micrometer.core.instrument.Counter;
import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.expression.Expression;
import io.sluice.core.logging.RepeatedFailureLog;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.TimerService;
import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.store.memory.MemoryStorage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code aggregate} processor, the second half of split and aggregate: it gathers messages into
 * groups by a correlation key ({@code vars.correlationId} unless told), each member once by its
 * member key ({@code vars.correlationSequence}, else the message's id), and a group is complete
 * when it holds {@code size} members ({@code vars.correlationGroupSize} unless told) or when {@code
 * timeout} has passed since its first member. Then its processors run, detached, on a message whose
 * payload is the members' payloads (in member order when the member keys are numbers, else as they
 * came), with the variables {@code correlationId} and {@code aggregateCompletion} ({@code size},
 * {@code timeout}, or {@code recovered} for one complete before a restart). Each message passes
 * through unchanged.
 *
 * <p>With {@code persistent: true} the groups being built are kept in an object store of the
 * application's store ({@code aggregate.<flow>.<name>}): after a restart a group goes on filling, a
 * member delivered again (a queue's at-least-once) is not counted twice, a complete group not yet
 * handed over is handed over (at least once), and the timeouts run from each group's first member.
 * A group is built under a lock per correlation key in this process: one node builds each group
 * (the store is not a lock between nodes).
 */
public final class Aggregate implements Processor {

  private static final Logger LOG = LoggerFactory.getLogger(Aggregate.class);
  private static final String OPEN = "open:";
  private static final String DONE = "done:";
  private static final String CLOSED = "closed:";

  /**
   * How long the member keys of a group handed over are remembered, so that a member delivered
   * again late is known as one (not the start of a new group).
   */
  public static final Duration CLOSED_MEMORY = Duration.ofDays(1);

  private static final String FIRST = "first";
  private static final String MEMBERS = "members";

  /** The correlation key unless told. */
  public static final String DEFAULT_CORRELATION = "vars." + Split.CORRELATION_ID;

  /** The group's size unless told. */
  public static final String DEFAULT_SIZE = "vars." + Split.GROUP_SIZE;

  /** A member's key unless told. */
  public static final String DEFAULT_MEMBER = "vars." + Split.SEQUENCE;

  private final String name;
  private final Expression correlation;
  private final Expression size;
  private final Expression member;
  private final Duration timeout;
  private final boolean persistent;
  private final String serializer;
  private final List<Processor> processors;
  private final RouterChains chains;
  private final ReentrantLock[] locks = new ReentrantLock[64];
  private final Map<String, TimerService.Cancellable> timers = new ConcurrentHashMap<>();
  private FlowContext context;
  private ObjectStore groups;
  private Counter bySize;
  private Counter byTimeout;
  private Counter duplicates;
  private RepeatedFailureLog failures;
  private volatile boolean running;

  /**
   * An aggregate.
   *
   * @param name its name (required when persistent: its store is named after it)
   * @param correlation the group a message belongs to
   * @param size how many members complete a group (null, or a null value, for none)
   * @param member a member's key in its group (a null value: the message's id)
   * @param timeout how long after its first member a group completes anyway, or null
   * @param persistent whether the groups are kept in the application's store
   * @param serializer the named serializer the groups are written with, or null
   * @param processors what runs on a complete group
   */
  public Aggregate(
      String name,
      Expression correlation,
      Expression size,
      Expression member,
      Duration timeout,
      boolean persistent,
      String serializer,
      List<Processor> processors) {
    if (persistent && (name == null || name.isBlank())) {
      throw new IllegalArgumentException(
          "a persistent aggregate needs a name: its groups in the store are named after it");
    }
    if (timeout != null && (timeout.isZero() || timeout.isNegative())) {
      throw new IllegalArgumentException("timeout must be positive, was " + timeout);
    }
    this.name = name == null || name.isBlank() ? "aggregate" : name;
    this.correlation = Objects.requireNonNull(correlation, "correlation");
    this.size = size;
    this.member = Objects.requireNonNull(member, "member");
    this.timeout = timeout;
    this.persistent = persistent;
    this.serializer = serializer;
    this.processors = List.copyOf(processors);
    this.chains = new RouterChains(List.of(this.processors));
    for (int i = 0; i < locks.length; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  /** The store a flow's persistent aggregate named {@code name} keeps its groups in. */
  public static String storeName(String flow, String name) {
    return "aggregate." + flow + "." + name;
  }

  @Override
  public void start(FlowContext flowContext) throws Exception {
    this.context = flowContext;
    String store = storeName(flowContext.flowName(), name);
    ObjectStoreOptions options = new ObjectStoreOptions(null, 0, serializer);
    this.groups =
        persistent
            ? flowContext.storage().objectStore(store, options)
            : new MemoryStorage(flowContext.clock()).objectStore(store, options);
    this.failures =
        new RepeatedFailureLog(
            LOG,
            "aggregate '" + name + "' of flow '" + flowContext.flowName() + "'",
            flowContext.clock());
    bySize = counter("size");
    byTimeout = counter("timeout");
    duplicates =
        RouterBase.routerCounter(
            flowContext,
            "aggregate",
            name,
            "sluice.router.duplicates",
            "Members an aggregate already held, not counted again");
    chains.start(flowContext);
    running = true;
    recover();
  }

  private Counter counter(String by) {
    return RouterBase.routerCounter(
        context,
        "aggregate",
        name,
        "sluice.router.groups",
        "Groups an aggregate completed, by what completed them",
        "by",
        by);
  }

  /**
   * Hands over the groups a stop left complete; restarts the timeouts of those still open. A group
   * whose stored bytes cannot be read is left where it is and said once: the others go on, and the
   * flow starts.
   */
  private void recover() {
    List<String> keys = groups.keys();
    Set<String> done = new HashSet<>();
    for (String key : keys) {
      if (key.startsWith(DONE)) {
        String id = key.substring(DONE.length());
        done.add(id);
        recovering(
            key,
            () -> {
              groups.remove(OPEN + id);
              groups.get(key).ifPresent(group -> handOver(id, group(group), "recovered"));
            });
      }
    }
    if (timeout == null) {
      return;
    }
    for (String key : keys) {
      String id = key.startsWith(OPEN) ? key.substring(OPEN.length()) : null;
      if (id != null && !done.contains(id)) {
        recovering(
            key,
            () ->
                groups
                    .get(key)
                    .ifPresent(
                        group -> schedule(id, ((Number) group(group).get(FIRST)).longValue())));
      }
    }
  }

  private void recovering(String key, Runnable step) {
    try {
      step.run();
    } catch (RuntimeException e) {
      LOG.warn(
          "aggregate '{}' of flow '{}' left group entry '{}' as it is: {}",
          name,
          context.flowName(),
          key,
          e.toString());
    }
  }

  @Override
  public void stop() {
    running = false;
    timers.values().forEach(TimerService.Cancellable::cancel);
    timers.clear();
    chains.stop();
  }

  @Override
  public Message process(Message message) {
    Object key = evaluate(correlation, message);
    if (key == null) {
      throw new SluiceException(
          "aggregate '"
              + name
              + "': message "
              + message.id()
              + " has no correlation key ('"
              + correlation.text()
              + "' gave nothing); split sets correlationId, or set correlation");
    }
    String id = key.toString();
    Object memberKey = evaluate(member, message);
    String memberId = memberKey == null ? message.id() : memberKey.toString();
    Integer wanted = wanted(message);
    if (wanted == null && timeout == null) {
      throw new SluiceException(
          "aggregate '"
              + name
              + "': message "
              + message.id()
              + " gives no group size ('"
              + size
              + "' gave nothing) and the aggregate has no timeout, so its group would never"
              + " complete; set size or timeout");
    }
    ReentrantLock lock = locks[Math.floorMod(id.hashCode(), locks.length)];
    lock.lock();
    try {
      if (handedOver(id, memberId)) {
        duplicates.increment();
        return message;
      }
      Map<String, Object> group = groups.get(OPEN + id).map(Aggregate::group).orElse(null);
      boolean first = group == null;
      if (first) {
        group = new LinkedHashMap<>();
        group.put(FIRST, context.clock().millis());
        group.put(MEMBERS, new LinkedHashMap<String, Object>());
      }
      Map<String, Object> members = members(group);
      if (members.containsKey(memberId)) {
        duplicates.increment();
        return message;
      }
      members.put(memberId, message.payload());
      if (wanted != null && members.size() >= wanted) {
        complete(id, group, "size");
      } else {
        groups.put(OPEN + id, group);
        if (first && timeout != null) {
          schedule(id, (Long) group.get(FIRST));
        }
      }
    } finally {
      lock.unlock();
    }
    return message;
  }

  private Object evaluate(Expression expression, Message message) {
    try {
      return expression.evaluate(message);
    } catch (RuntimeException e) {
      throw RoutingException.expression(
          "aggregate '" + name + "'", context.flowName(), expression, message, e);
    }
  }

  /** Whether the member is in a group of this key being handed over or handed over lately. */
  private boolean handedOver(String id, String memberId) {
    Map<String, Object> done = groups.get(DONE + id).map(Aggregate::group).orElse(null);
    if (done != null && members(done).containsKey(memberId)) {
      return true;
    }
    return groups
        .get(CLOSED + id)
        .map(closed -> ((List<?>) closed).contains(memberId))
        .orElse(false);
  }

  private Integer wanted(Message message) {
    if (size == null) {
      return null;
    }
    Object value = evaluate(size, message);
    if (value == null) {
      return null;
    }
    if (value instanceof Number n && n.longValue() >= 1 && n.longValue() <= Integer.MAX_VALUE) {
      return n.intValue();
    }
    throw new SluiceException(
        "aggregate '"
            + name
            + "': size '"
            + size
            + "' gave "
            + value
            + " for message "
            + message.id()
            + "; a group's size is a whole number from 1 to "
            + Integer.MAX_VALUE);
  }

  /** The group is complete: kept as done before it leaves the open ones, then handed over. */
  private void complete(String id, Map<String, Object> group, String by) {
    TimerService.Cancellable timer = timers.remove(id);
    if (timer != null) {
      timer.cancel();
    }
    groups.put(DONE + id, group);
    groups.remove(OPEN + id);
    (by.equals("size") ? bySize : byTimeout).increment();
    handOver(id, group, by);
  }

  private void handOver(String id, Map<String, Object> group, String by) {
    Message complete =
        Message.of(ordered(members(group)))
            .withVariable(Split.CORRELATION_ID, id)
            .withVariable("aggregateCompletion", by);
    context
        .runDetached(processors, complete)
        .whenComplete(
            (result, error) -> {
              if (error == null) {
                failures.recovered();
              } else {
                failures.failed(
                    "aggregate '{}' of flow '{}': the processors of group '{}' failed: {}",
                    name,
                    context.flowName(),
                    id,
                    error.toString());
              }
              try {
                groups.put(CLOSED + id, new ArrayList<>(members(group).keySet()), CLOSED_MEMORY);
                groups.remove(DONE + id);
              } catch (RuntimeException e) {
                // Kept as done: the next start hands it over again (at least once).
                failures.failed(
                    "aggregate '{}' could not forget group '{}' it handed over: {}",
                    name,
                    id,
                    e.toString());
              }
            });
  }

  private void schedule(String id, long first) {
    long left = first + timeout.toMillis() - context.clock().millis();
    timers.put(
        id,
        context.timer().schedule(Duration.ofMillis(Math.max(0, left)), () -> timedOut(id, first)));
  }

  private void timedOut(String id, long first) {
    if (!running) {
      return;
    }
    ReentrantLock lock = locks[Math.floorMod(id.hashCode(), locks.length)];
    lock.lock();
    try {
      timers.remove(id);
      Map<String, Object> group = groups.get(OPEN + id).map(Aggregate::group).orElse(null);
      if (group != null && ((Number) group.get(FIRST)).longValue() == first) {
        complete(id, group, "timeout");
      }
    } catch (RuntimeException e) {
      failures.failed(
          "aggregate '{}' could not complete group '{}' at its timeout: {}",
          name,
          id,
          e.toString());
    } finally {
      lock.unlock();
    }
  }

  /** The members' payloads: by member key when every key is a whole number, else as they came. */
  private static List<Object> ordered(Map<String, Object> members) {
    List<Map.Entry<String, Object>> entries = new ArrayList<>(members.entrySet());
    boolean numbered = entries.stream().allMatch(e -> e.getKey().matches("-?\\d{1,18}"));
    if (numbered) {
      entries.sort(
          Map.Entry.comparingByKey((a, b) -> Long.compare(Long.parseLong(a), Long.parseLong(b))));
    }
    List<Object> payloads = new ArrayList<>(entries.size());
    entries.forEach(e -> payloads.add(e.getValue()));
    return payloads;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> group(Object stored) {
    return (Map<String, Object>) stored;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> members(Map<String, Object> group) {
    return (Map<String, Object>) group.get(MEMBERS);
  }

  @Override
  public ProcessingType processingType() {
    return persistent ? ProcessingType.BLOCKING_IO : ProcessingType.CPU_LITE;
  }

  @Override
  public String name() {
    return name;
  }

  /** What runs on a complete group. */
  public List<Processor> processors() {
    return processors;
  }

  /** A builder for an aggregate named {@code name}. */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * Builds an {@link Aggregate}: correlated by {@link #DEFAULT_CORRELATION}, sized by {@link
   * #DEFAULT_SIZE}, members keyed by {@link #DEFAULT_MEMBER}, in memory, unless told.
   */
  public static final class Builder {
    private final String name;
    private Expression correlation = Expression.compile("correlation", DEFAULT_CORRELATION);
    private Expression size = Expression.compile("size", DEFAULT_SIZE);
    private Expression member = Expression.compile("member", DEFAULT_MEMBER);
    private Duration timeout;
    private boolean persistent;
    private String serializer;
    private final List<Processor> processors = new ArrayList<>();

    private Builder(String name) {
      this.name = name;
    }

    /** The group a message belongs to: a JEXL expression. */
    public Builder correlation(String expression) {
      this.correlation = Expression.compile("correlation", expression);
      return this;
    }

    /** How many members complete a group: a JEXL expression ({@code 10}, {@code vars.n}). */
    public Builder size(String expression) {
      this.size = Expression.compile("size", expression);
      return this;
    }

    /** A member's key in its group: a JEXL expression. */
    public Builder member(String expression) {
      this.member = Expression.compile("member", expression);
      return this;
    }

    /** How long after its first member a group is handed over anyway. */
    public Builder timeout(Duration value) {
      this.timeout = value;
      return this;
    }

    /** Keeps the groups in the application's store, written with the named serializer or null. */
    public Builder persistent(String serializerName) {
      this.persistent = true;
      this.serializer = serializerName;
      return this;
    }

    /** Appends processors run on a complete group. */
    public Builder processors(Processor... values) {
      processors.addAll(List.of(values));
      return this;
    }

    /** The aggregate. */
    public Aggregate build() {
      return new Aggregate(
          name, correlation, size, member, timeout, persistent, serializer, processors);
    }
  }
}
