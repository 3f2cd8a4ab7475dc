package io.sluice.core;

import io.sluice.core.transaction.OpenTransactions;
import io.sluice.core.transaction.Transaction;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A message is what flows through Sluice: a payload, the attributes its source attached (file name,
 * headers, queue name) and the variables processors set along the way.
 *
 * <p>Messages are immutable. Every {@code with*} method returns a new message that shares what it
 * did not change, so a copy on change costs one small object (and one map copy when a map changes).
 * The payload itself is not copied: treat it as immutable too.
 */
public final class Message {

  private static final Map<String, Object> EMPTY = Map.of();

  /**
   * This process's part of every message id: random, so ids from two processes (two nodes, or one
   * before and after a restart) do not collide in logs.
   */
  private static final String PROCESS =
      Long.toString(ThreadLocalRandom.current().nextLong() >>> 24, 36);

  private static final AtomicLong IDS = new AtomicLong();

  private final long id;

  private final Object payload;
  private final Map<String, Object> attributes;
  private final Map<String, Object> variables;
  private final FlowError error;

  /**
   * The transactions of the {@code try} scopes the message is in, or null: not a variable, so no
   * expression sees it and nothing stores it; it takes the object's padding, so a message is no
   * bigger for it.
   */
  private final OpenTransactions transactions;

  private Message(
      long id,
      Object payload,
      Map<String, Object> attributes,
      Map<String, Object> variables,
      FlowError error,
      OpenTransactions transactions) {
    this.id = id;
    this.payload = payload;
    this.attributes = attributes;
    this.variables = variables;
    this.error = error;
    this.transactions = transactions;
  }

  /** A message with this payload (which may be null) and no attributes. */
  public static Message of(Object payload) {
    return new Message(IDS.incrementAndGet(), payload, EMPTY, EMPTY, null, null);
  }

  /** A message with this payload and a copy of these attributes. */
  public static Message of(Object payload, Map<String, ?> attributes) {
    return new Message(IDS.incrementAndGet(), payload, copy(attributes), EMPTY, null, null);
  }

  /**
   * The message's id: unique within the process and, with the process's random part, in practice
   * across processes; every message derived from this one with a {@code with*} method keeps it, so
   * logs and errors can follow one message through a flow and its routes.
   */
  public String id() {
    return PROCESS + "-" + id;
  }

  /** The payload, possibly null. */
  public Object payload() {
    return payload;
  }

  /** The payload cast to {@code type}; fails with a clear message when it is of another type. */
  public <T> T payload(Class<T> type) {
    if (payload != null && !type.isInstance(payload)) {
      throw new ClassCastException(
          "payload is a " + payload.getClass().getName() + ", not a " + type.getName());
    }
    return type.cast(payload);
  }

  /** The attributes set by the source, read-only. */
  public Map<String, Object> attributes() {
    return attributes;
  }

  /** One attribute, or null. */
  public Object attribute(String name) {
    return attributes.get(name);
  }

  /** The flow variables, read-only. */
  public Map<String, Object> variables() {
    return variables;
  }

  /** One variable, or null. */
  public Object variable(String name) {
    return variables.get(name);
  }

  /** The error being handled, present only inside an error handler. */
  public Optional<FlowError> error() {
    return Optional.ofNullable(error);
  }

  /** This message with another payload. */
  public Message withPayload(Object newPayload) {
    return new Message(id, newPayload, attributes, variables, error, transactions);
  }

  /** This message with its attributes replaced by a copy of these. */
  public Message withAttributes(Map<String, ?> newAttributes) {
    return new Message(id, payload, copy(newAttributes), variables, error, transactions);
  }

  /** This message with one attribute set; a null value removes it. */
  public Message withAttribute(String name, Object value) {
    return new Message(id, payload, put(attributes, name, value), variables, error, transactions);
  }

  /** This message with one variable set; a null value removes it. */
  public Message withVariable(String name, Object value) {
    return new Message(id, payload, attributes, put(variables, name, value), error, transactions);
  }

  /**
   * This message with its payload replaced and one variable set (a null value removes it), in one
   * copy: what a loop does for each element ({@code foreach}'s payload and counter).
   */
  public Message withPayloadAndVariable(Object newPayload, String name, Object value) {
    return new Message(
        id, newPayload, attributes, put(variables, name, value), error, transactions);
  }

  /** This message with its variables replaced by a copy of these. */
  public Message withVariables(Map<String, ?> newVariables) {
    return new Message(id, payload, attributes, copy(newVariables), error, transactions);
  }

  /** This message with the error being handled set, or cleared when null. */
  public Message withError(FlowError newError) {
    return new Message(id, payload, attributes, variables, newError, transactions);
  }

  /**
   * The transaction on the resource (data source) named {@code resourceName} that the message is
   * inside (a {@code try} with {@code transaction}), or null: a database operation on that data
   * source joins it.
   */
  public Transaction transaction(String resourceName) {
    return transactions == null ? null : transactions.on(resourceName);
  }

  /** The transactions the message is inside, innermost first, or null. */
  public OpenTransactions transactions() {
    return transactions;
  }

  /** This message inside {@code transaction} too (a scope began it). */
  public Message withTransaction(Transaction transaction) {
    Objects.requireNonNull(transaction, "transaction");
    return new Message(
        id, payload, attributes, variables, error, new OpenTransactions(transaction, transactions));
  }

  /** This message outside {@code transaction} (its scope ended). */
  public Message withoutTransaction(Transaction transaction) {
    if (transactions == null) {
      return this;
    }
    OpenTransactions rest = transactions.without(transaction);
    return rest == transactions
        ? this
        : new Message(id, payload, attributes, variables, error, rest);
  }

  /**
   * This message outside every transaction: for another unit of work (a message sent to another
   * flow's queue), which must not run in the scope's transaction.
   */
  public Message withoutTransactions() {
    return transactions == null
        ? this
        : new Message(id, payload, attributes, variables, error, null);
  }

  private static Map<String, Object> put(Map<String, Object> map, String name, Object value) {
    Objects.requireNonNull(name, "name");
    if (value == null && !map.containsKey(name)) {
      return map;
    }
    if (map instanceof SmallMap small) {
      if (value == null) {
        return small.size() == 1 ? EMPTY : small.without(name);
      }
      if (small.size() < SMALL || small.containsKey(name)) {
        return small.with(name, value);
      }
    } else if (value != null && map.size() < SMALL) {
      return SmallMap.of(map, name, value);
    }
    // Past SMALL entries: an ordered copy, so the variables keep the order they were set in.
    Map<String, Object> copy = new LinkedHashMap<>(map);
    if (value == null) {
      copy.remove(name);
    } else {
      copy.put(name, value);
    }
    return copy.isEmpty() ? EMPTY : Collections.unmodifiableMap(copy);
  }

  /**
   * Up to this many variables or attributes, a change makes a {@link SmallMap} (replacing one keeps
   * a full one small; a removal too).
   */
  private static final int SMALL = 8;

  /**
   * The classes of the JDK's immutable maps ({@code Map.of}, {@code Map.copyOf}, {@code
   * Map.ofEntries}) and {@link SmallMap}: no null key or value and nothing can change them, so they
   * are kept as given instead of copied (a source building its attributes that way saves a copy per
   * message).
   */
  private static final Set<Class<?>> IMMUTABLE_MAPS =
      Set.of(Map.of().getClass(), Map.of("k", 1).getClass(), SmallMap.class);

  @SuppressWarnings("unchecked")
  private static Map<String, Object> copy(Map<String, ?> map) {
    if (map == null || map.isEmpty()) {
      return EMPTY;
    }
    if (IMMUTABLE_MAPS.contains(map.getClass())) {
      return (Map<String, Object>) map;
    }
    Map<String, Object> copy = new HashMap<>();
    map.forEach(
        (k, v) -> {
          if (v != null) {
            copy.put(Objects.requireNonNull(k, "attribute name"), v);
          }
        });
    return Collections.unmodifiableMap(copy);
  }

  @Override
  public String toString() {
    String shown = String.valueOf(payload);
    if (shown.length() > 80) {
      shown = shown.substring(0, 77) + "...";
    }
    return "Message[id="
        + id()
        + ", payload="
        + shown
        + ", attributes="
        + attributes.keySet()
        + ", variables="
        + variables.keySet()
        + (error == null ? "" : ", error=" + error)
        + "]";
  }
}
