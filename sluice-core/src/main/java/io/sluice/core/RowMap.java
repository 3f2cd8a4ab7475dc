package io.sluice.core;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.io.Serializable;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * A row of a query's result: a map of column label to value, in the columns' order. Every row of
 * one result shares its {@link Columns} (the labels and their lookup, made once); a row holds only
 * its values, one array, where a {@link LinkedHashMap} made a node per column and a table.
 *
 * <p>It is a full, mutable {@code Map<String, Object>} and behaves as the {@link LinkedHashMap} of
 * the same entries: null values, setting a column's value ({@code put}, {@code Entry.setValue})
 * changes it in place; adding a key or removing one makes the row a {@link LinkedHashMap} of its
 * entries inside (in their order), which it then stays. It is equal to any map of the same entries,
 * with the same hash code, and prints as one.
 *
 * <p>Public only so that serializers can name it: rows are payloads users keep and store. Java
 * serialization writes it as a {@link LinkedHashMap} of its entries ({@link #writeReplace}), and so
 * do the serializers of sluice-serializers; it is read back as that.
 */
public final class RowMap extends AbstractMap<String, Object> implements Serializable {

  @Serial private static final long serialVersionUID = 1L;

  private final transient Columns columns;
  private final Object[] values;
  // The row once a key was added or removed: the columns no longer describe it.
  private LinkedHashMap<String, Object> own;
  // Keys added or removed, for the iterators to fail fast.
  private transient int changes;

  private RowMap(Columns columns, Object[] values) {
    this.columns = columns;
    this.values = values;
  }

  /**
   * The column labels shared by the rows of one result, in order, with their lookup. Immutable and
   * safe to share between threads.
   */
  public static final class Columns {

    // Up to this many labels a scan finds one faster than hashing it.
    private static final int SCANNED = 8;

    private final String[] labels;
    private final Map<String, Integer> index;

    private Columns(String[] labels) {
      this.labels = labels;
      Map<String, Integer> byLabel = HashMap.newHashMap(labels.length);
      for (int i = 0; i < labels.length; i++) {
        if (byLabel.put(labels[i], i) != null) {
          throw new IllegalArgumentException(
              "column label '" + labels[i] + "' is given twice in " + Arrays.toString(labels));
        }
      }
      this.index = labels.length > SCANNED ? byLabel : null;
    }

    /**
     * The columns labelled {@code labels}, in that order.
     *
     * @throws IllegalArgumentException when a label is given twice (a row has each key once)
     */
    public static Columns of(List<String> labels) {
      return new Columns(labels.toArray(new String[0]));
    }

    /** The number of columns. */
    public int size() {
      return labels.length;
    }

    /**
     * A row of these columns holding {@code values}, one per column in order. The row keeps the
     * array: the caller hands it over and does not change it afterwards.
     *
     * @throws IllegalArgumentException when there is not one value per column
     */
    public RowMap row(Object[] values) {
      if (values.length != labels.length) {
        throw new IllegalArgumentException(
            values.length + " values for the columns " + Arrays.toString(labels));
      }
      return new RowMap(this, values);
    }

    int indexOf(Object key) {
      if (index != null) {
        Integer at = index.get(key);
        return at == null ? -1 : at;
      }
      for (int i = 0; i < labels.length; i++) {
        if (Objects.equals(labels[i], key)) {
          return i;
        }
      }
      return -1;
    }
  }

  /** This row as a {@link LinkedHashMap} of its own, kept from now on. */
  private LinkedHashMap<String, Object> detach() {
    if (own == null) {
      LinkedHashMap<String, Object> copy = LinkedHashMap.newLinkedHashMap(values.length + 1);
      for (int i = 0; i < values.length; i++) {
        copy.put(columns.labels[i], values[i]);
      }
      own = copy;
    }
    return own;
  }

  /** Written as a plain ordered map, which every reader knows. */
  @Serial
  private Object writeReplace() {
    return new LinkedHashMap<>(this);
  }

  @Serial
  private void readObject(ObjectInputStream in) throws InvalidObjectException {
    throw new InvalidObjectException("a RowMap is written as a LinkedHashMap");
  }

  @Override
  public int size() {
    return own != null ? own.size() : values.length;
  }

  @Override
  public boolean isEmpty() {
    return size() == 0;
  }

  @Override
  public boolean containsKey(Object key) {
    return own != null ? own.containsKey(key) : columns.indexOf(key) >= 0;
  }

  @Override
  public boolean containsValue(Object value) {
    if (own != null) {
      return own.containsValue(value);
    }
    for (Object v : values) {
      if (Objects.equals(v, value)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public Object get(Object key) {
    if (own != null) {
      return own.get(key);
    }
    int at = columns.indexOf(key);
    return at < 0 ? null : values[at];
  }

  @Override
  public Object put(String key, Object value) {
    if (own == null) {
      int at = columns.indexOf(key);
      if (at >= 0) {
        Object old = values[at];
        values[at] = value;
        return old;
      }
    }
    LinkedHashMap<String, Object> map = detach();
    int before = map.size();
    Object old = map.put(key, value);
    if (map.size() != before) {
      changes++;
    }
    return old;
  }

  @Override
  public Object remove(Object key) {
    if (!containsKey(key)) {
      return null;
    }
    changes++;
    return detach().remove(key);
  }

  @Override
  public void clear() {
    changes++;
    own = new LinkedHashMap<>();
  }

  @Override
  public void forEach(BiConsumer<? super String, ? super Object> action) {
    if (own != null) {
      own.forEach(action);
      return;
    }
    for (int i = 0; i < values.length; i++) {
      action.accept(columns.labels[i], values[i]);
    }
  }

  @Override
  public Set<Map.Entry<String, Object>> entrySet() {
    return new EntrySet();
  }

  private final class EntrySet extends AbstractSet<Map.Entry<String, Object>> {
    @Override
    public Iterator<Map.Entry<String, Object>> iterator() {
      return own != null ? own.entrySet().iterator() : new Entries();
    }

    @Override
    public int size() {
      return RowMap.this.size();
    }

    @Override
    public boolean contains(Object o) {
      return o instanceof Map.Entry<?, ?> e
          && containsKey(e.getKey())
          && Objects.equals(get(e.getKey()), e.getValue());
    }

    @Override
    public boolean remove(Object o) {
      if (contains(o)) {
        RowMap.this.remove(((Map.Entry<?, ?>) o).getKey());
        return true;
      }
      return false;
    }

    @Override
    public void clear() {
      RowMap.this.clear();
    }
  }

  /**
   * The entries in the columns' order. One removed through the iterator makes the row its own map;
   * the iterator goes on through the columns after it, which are that map's keys in order.
   */
  private final class Entries implements Iterator<Map.Entry<String, Object>> {
    private int next;
    private int last = -1;
    private int expected = changes;

    @Override
    public boolean hasNext() {
      return next < values.length;
    }

    @Override
    public Map.Entry<String, Object> next() {
      if (changes != expected) {
        throw new ConcurrentModificationException();
      }
      if (next >= values.length) {
        throw new NoSuchElementException();
      }
      last = next++;
      return new Column(last);
    }

    @Override
    public void remove() {
      if (last < 0) {
        throw new IllegalStateException();
      }
      if (changes != expected) {
        throw new ConcurrentModificationException();
      }
      RowMap.this.remove(columns.labels[last]);
      expected = changes;
      last = -1;
    }
  }

  /** The entry of one column, reading and writing the row. */
  private final class Column implements Map.Entry<String, Object> {
    private final int index;

    Column(int index) {
      this.index = index;
    }

    @Override
    public String getKey() {
      return columns.labels[index];
    }

    @Override
    public Object getValue() {
      return own == null ? values[index] : own.get(getKey());
    }

    @Override
    public Object setValue(Object value) {
      if (own == null) {
        Object old = values[index];
        values[index] = value;
        return old;
      }
      String key = getKey();
      return own.containsKey(key) ? own.put(key, value) : null; // removed since: as a removed node
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Map.Entry<?, ?> e
          && Objects.equals(getKey(), e.getKey())
          && Objects.equals(getValue(), e.getValue());
    }

    @Override
    public int hashCode() {
      return Objects.hashCode(getKey()) ^ Objects.hashCode(getValue());
    }

    @Override
    public String toString() {
      return getKey() + "=" + getValue();
    }
  }
}
