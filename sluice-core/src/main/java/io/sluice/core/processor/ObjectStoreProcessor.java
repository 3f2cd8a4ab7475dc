package io.sluice.core.processor;

import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.expression.Template;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import java.time.Duration;
import java.util.Objects;

/**
 * Uses a named object store of the application's storage from a flow: {@link Operation#PUT} a value
 * under a key (the payload unless a value template is given), {@link Operation#GET} the value under
 * a key into a variable (or the payload), {@link Operation#REMOVE} it. Keys are templates ({@code
 * #[attributes.fileName]}). A GET of a missing key sets nothing when it targets a variable (the
 * variable is removed), and fails when it targets the payload, naming the store and the key.
 */
public final class ObjectStoreProcessor implements Processor {

  /** What the processor does with the store. */
  public enum Operation {
    /** Stores the value under the key, replacing what was there. */
    PUT,
    /** Reads the value under the key. */
    GET,
    /** Removes the value under the key. */
    REMOVE
  }

  private final Operation operation;
  private final String storeName;
  private final Template key;
  private final Template value;
  private final String target;
  private final Duration ttl;
  private final ObjectStoreOptions options;
  private volatile ObjectStore store;

  /**
   * A processor doing {@code operation} on the store {@code storeName}.
   *
   * @param key the key, a template
   * @param value PUT: what is stored (null: the payload)
   * @param target GET: the variable that receives the value (null: the payload)
   * @param ttl PUT: how long the entry lives (null: the store's TTL, for ever unless set)
   */
  public ObjectStoreProcessor(
      Operation operation,
      String storeName,
      Template key,
      Template value,
      String target,
      Duration ttl) {
    this(operation, storeName, key, value, target, ttl, ObjectStoreOptions.DEFAULTS);
  }

  /**
   * As above, the store opened with {@code options}: the named serializer its puts write with and
   * the most entries it keeps (its TTL is {@code ttl}'s, per put).
   */
  public ObjectStoreProcessor(
      Operation operation,
      String storeName,
      Template key,
      Template value,
      String target,
      Duration ttl,
      ObjectStoreOptions options) {
    this.options = Objects.requireNonNull(options, "options");
    this.operation = Objects.requireNonNull(operation, "operation");
    this.storeName = Objects.requireNonNull(storeName, "storeName");
    this.key = Objects.requireNonNull(key, "key");
    this.value = value;
    this.target = target;
    this.ttl = ttl;
    if (ttl != null && !ttl.isPositive()) {
      throw new IllegalArgumentException("ttl must be a positive duration, was " + ttl);
    }
  }

  @Override
  public void start(FlowContext context) {
    store = context.storage().objectStore(storeName, options);
  }

  @Override
  public Message process(Message message) {
    String k = key.render(message);
    return switch (operation) {
      case PUT -> {
        Object v = value == null ? message.payload() : value.evaluate(message);
        if (ttl == null) {
          store.put(k, v);
        } else {
          store.put(k, v, ttl);
        }
        yield message;
      }
      case GET -> {
        Object found = store.get(k).orElse(null);
        if (target != null) {
          yield message.withVariable(target, found);
        }
        if (found == null) {
          throw new SluiceException(
              "object store '"
                  + storeName
                  + "' has no value under '"
                  + k
                  + "'; give store-get a target to take a missing entry as a null variable");
        }
        yield message.withPayload(found);
      }
      case REMOVE -> {
        store.remove(k);
        yield message;
      }
    };
  }

  @Override
  public ProcessingType processingType() {
    return ProcessingType.BLOCKING_IO;
  }

  @Override
  public String name() {
    return "store-" + operation.name().toLowerCase(java.util.Locale.ROOT) + "(" + storeName + ")";
  }
}
