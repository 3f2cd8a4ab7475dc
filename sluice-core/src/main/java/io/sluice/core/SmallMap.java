package io.sluice.core;

import java.io.Serial;
import java.io.Serializable;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The immutable map of a message's few variables or attributes: keys and values side by side in one
 * array, in the order they were first set, found by a scan. A flow sets its variables one at a time
 * (a {@code foreach} its counter once per element): setting one here copies one short array, where
 * one of the JDK's compact maps hashed and probed every key again. No null key or value; every
 * change is a new map ({@link #with}).
 *
 * <p>Public only so that serializers can name it: such a map can become a payload ({@code
 * set-payload: "#[vars]"}) that a store keeps. Java serialization writes it as a {@link
 * LinkedHashMap} of its entries ({@link #writeReplace}), and so do the serializers of
 * sluice-serializers; it is read back as that.
 */
public final class SmallMap extends AbstractMap<String, Object> implements Serializable {

  @Serial private static final long serialVersionUID = 1L;

  private final Object[] keysAndValues;

  private SmallMap(Object[] keysAndValues) {
    this.keysAndValues = keysAndValues;
  }

  /** {@code map} (small, no null key or value) with {@code name} set to {@code value}. */
  static SmallMap of(Map<String, Object> map, String name, Object value) {
    if (map instanceof SmallMap small) {
      return small.with(name, value);
    }
    Object[] kv = new Object[2 * (map.size() + 1)];
    int n = 0;
    for (Map.Entry<String, Object> entry : map.entrySet()) {
      if (!entry.getKey().equals(name)) {
        kv[n++] = entry.getKey();
        kv[n++] = entry.getValue();
      }
    }
    kv[n++] = name;
    kv[n++] = value;
    return new SmallMap(n == kv.length ? kv : Arrays.copyOf(kv, n));
  }

  /**
   * This map with {@code name} set to {@code value} (not null): replaced in place, or added last.
   */
  SmallMap with(String name, Object value) {
    int at = indexOf(name);
    Object[] kv;
    if (at >= 0) {
      kv = keysAndValues.clone();
      kv[at + 1] = value;
    } else {
      kv = Arrays.copyOf(keysAndValues, keysAndValues.length + 2);
      kv[keysAndValues.length] = name;
      kv[keysAndValues.length + 1] = value;
    }
    return new SmallMap(kv);
  }

  /** This map without {@code name} (this one when it has none), the others in their order. */
  SmallMap without(String name) {
    int at = indexOf(name);
    if (at < 0) {
      return this;
    }
    Object[] kv = new Object[keysAndValues.length - 2];
    System.arraycopy(keysAndValues, 0, kv, 0, at);
    System.arraycopy(keysAndValues, at + 2, kv, at, keysAndValues.length - at - 2);
    return new SmallMap(kv);
  }

  private int indexOf(Object key) {
    for (int i = 0; i < keysAndValues.length; i += 2) {
      Object k = keysAndValues[i];
      if (k == key || k.equals(key)) {
        return i;
      }
    }
    return -1;
  }

  /** Written as a plain ordered map, which every reader knows. */
  @Serial
  private Object writeReplace() {
    return new LinkedHashMap<>(this);
  }

  @Override
  public Object get(Object key) {
    int at = indexOf(key);
    return at < 0 ? null : keysAndValues[at + 1];
  }

  @Override
  public boolean containsKey(Object key) {
    return indexOf(key) >= 0;
  }

  @Override
  public int size() {
    return keysAndValues.length / 2;
  }

  @Override
  public boolean isEmpty() {
    return keysAndValues.length == 0;
  }

  @Override
  public void forEach(BiConsumer<? super String, ? super Object> action) {
    for (int i = 0; i < keysAndValues.length; i += 2) {
      action.accept((String) keysAndValues[i], keysAndValues[i + 1]);
    }
  }

  @Override
  public Set<Map.Entry<String, Object>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Map.Entry<String, Object>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < keysAndValues.length;
          }

          @Override
          public Map.Entry<String, Object> next() {
            if (next >= keysAndValues.length) {
              throw new NoSuchElementException();
            }
            Map.Entry<String, Object> entry =
                Map.entry((String) keysAndValues[next], keysAndValues[next + 1]);
            next += 2;
            return entry;
          }
        };
      }

      @Override
      public int size() {
        return keysAndValues.length / 2;
      }
    };
  }
}
