package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.expression.Template;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A query's row is a {@link RowMap}: every operation of {@link Map} gives what the {@link
 * LinkedHashMap} of the same columns, filled in their order, gives, and the two are equal both
 * ways.
 */
class ARowMapBehavesAsALinkedHashMapTest {

  private static final RowMap.Columns COLUMNS = RowMap.Columns.of(List.of("id", "name", "at"));

  private static RowMap row() {
    return COLUMNS.row(new Object[] {1L, "first", null});
  }

  private static LinkedHashMap<String, Object> linked() {
    LinkedHashMap<String, Object> map = new LinkedHashMap<>();
    map.put("id", 1L);
    map.put("name", "first");
    map.put("at", null);
    return map;
  }

  /** Asserts {@code row} and {@code expected} are equal both ways, with their order. */
  private static void assertSame(Map<String, Object> row, Map<String, Object> expected) {
    assertThat(row.equals(expected)).isTrue();
    assertThat(expected.equals(row)).isTrue();
    assertThat(row.hashCode()).isEqualTo(expected.hashCode());
    assertThat(row.toString()).isEqualTo(expected.toString());
    assertThat(row.size()).isEqualTo(expected.size());
    assertThat(new ArrayList<>(row.keySet())).isEqualTo(new ArrayList<>(expected.keySet()));
    assertThat(new ArrayList<>(row.values())).isEqualTo(new ArrayList<>(expected.values()));
    assertThat(new ArrayList<>(row.entrySet())).isEqualTo(new ArrayList<>(expected.entrySet()));
    List<String> seen = new ArrayList<>();
    row.forEach((k, v) -> seen.add(k + "=" + v));
    List<String> expectedSeen = new ArrayList<>();
    expected.forEach((k, v) -> expectedSeen.add(k + "=" + v));
    assertThat(seen).isEqualTo(expectedSeen);
  }

  @Test
  void aRowReadsAsTheLinkedHashMapOfItsColumnsInTheirOrder() {
    RowMap row = row();

    assertSame(row, linked());
    assertThat(row.toString()).isEqualTo("{id=1, name=first, at=null}");
    assertThat(row.get("name")).isEqualTo("first");
    assertThat(row.get("missing")).isNull();
    assertThat(row.get(null)).isNull();
    assertThat(row.get(7)).isNull();
    assertThat(row.containsKey("at")).as("a null column is a key").isTrue();
    assertThat(row.get("at")).isNull();
    assertThat(row.getOrDefault("at", "x")).as("a null value is a value").isNull();
    assertThat(row.getOrDefault("missing", "x")).isEqualTo("x");
    assertThat(row.containsKey("ID")).as("labels are matched exactly").isFalse();
    assertThat(row.containsValue(null)).isTrue();
    assertThat(row.containsValue("first")).isTrue();
    assertThat(row.containsValue("second")).isFalse();
    assertThat(row.entrySet()).contains(Map.entry("id", 1L));
    assertThat(row.isEmpty()).isFalse();
    assertThat(row).isNotEqualTo(Map.of("id", 1L, "name", "first"));
  }

  @Test
  void settingAColumnChangesItInPlaceAndAddingOrRemovingKeysKeepsTheOrder() {
    RowMap row = row();
    LinkedHashMap<String, Object> expected = linked();

    assertThat(row.put("name", "renamed")).isEqualTo(expected.put("name", "renamed"));
    assertSame(row, expected);
    assertThat(row.put("at", "now")).isNull();
    expected.put("at", "now");
    assertSame(row, expected);

    assertThat(row.put("extra", 5)).isEqualTo(expected.put("extra", 5));
    assertSame(row, expected);
    assertThat(row.put("id", 2L)).isEqualTo(expected.put("id", 2L));
    assertSame(row, expected);
    assertThat(row.remove("name")).isEqualTo(expected.remove("name"));
    assertSame(row, expected);
    assertThat(row.remove("name")).isNull();
    assertThat(row.putIfAbsent("name", "back")).isEqualTo(expected.putIfAbsent("name", "back"));
    assertSame(row, expected);
    row.replaceAll((k, v) -> k + ":" + v);
    expected.replaceAll((k, v) -> k + ":" + v);
    assertSame(row, expected);
    row.clear();
    assertThat(row).isEmpty();
    assertThat(row).isEqualTo(Map.of());
    row.put("again", 1);
    assertThat(row).isEqualTo(Map.of("again", 1));
  }

  @Test
  void aRemovalBeforeAnyOtherChangeKeepsTheOthersInOrder() {
    RowMap row = row();
    LinkedHashMap<String, Object> expected = linked();

    assertThat(row.remove("id")).isEqualTo(1L);
    expected.remove("id");
    assertSame(row, expected);
    assertThat(row.remove("missing")).isNull();
    row.put("id", 9L);
    expected.put("id", 9L);
    assertSame(row, expected);
  }

  @Test
  void theViewsReadAndWriteTheRow() {
    RowMap row = row();
    LinkedHashMap<String, Object> expected = linked();

    for (Map.Entry<String, Object> entry : row.entrySet()) {
      if (entry.getKey().equals("name")) {
        assertThat(entry.setValue("set")).isEqualTo("first");
      }
    }
    expected.put("name", "set");
    assertSame(row, expected);

    assertThat(row.values().removeIf(Objects::isNull)).isTrue();
    expected.values().removeIf(Objects::isNull);
    assertSame(row, expected);

    RowMap other = row();
    Iterator<Map.Entry<String, Object>> entries = other.entrySet().iterator();
    Map.Entry<String, Object> first = entries.next();
    entries.remove();
    assertThatThrownBy(entries::remove).isInstanceOf(IllegalStateException.class);
    Map.Entry<String, Object> second = entries.next();
    assertThat(second.setValue("after a removal")).isEqualTo("first");
    assertThat(entries.next().getKey()).isEqualTo("at");
    assertThat(entries.hasNext()).isFalse();
    assertThat(first.getKey()).isEqualTo("id");
    LinkedHashMap<String, Object> afterRemoval = new LinkedHashMap<>();
    afterRemoval.put("name", "after a removal");
    afterRemoval.put("at", null);
    assertSame(other, afterRemoval);

    RowMap third = row();
    third.keySet().remove("at");
    assertThat(third).isEqualTo(Map.of("id", 1L, "name", "first"));
    assertThat(third.entrySet().remove(Map.entry("id", 2L))).isFalse();
    assertThat(third.entrySet().remove(Map.entry("id", 1L))).isTrue();
    assertThat(third).isEqualTo(Map.of("name", "first"));
    third.entrySet().clear();
    assertThat(third).isEmpty();
  }

  @Test
  void anIteratorFailsFastWhenTheRowGainsOrLosesAKeyBeneathIt() {
    RowMap row = row();
    Iterator<String> keys = row.keySet().iterator();
    keys.next();
    row.put("name", "a value changed: no harm");
    keys.next();
    row.put("extra", 1);
    assertThatThrownBy(keys::next).isInstanceOf(ConcurrentModificationException.class);
  }

  @Test
  void aWideRowFindsItsColumnsByLabel() {
    List<String> labels = IntStream.range(0, 40).mapToObj(i -> "c" + i).toList();
    RowMap row = RowMap.Columns.of(labels).row(IntStream.range(0, 40).boxed().toArray());
    LinkedHashMap<String, Object> expected = new LinkedHashMap<>();
    IntStream.range(0, 40).forEach(i -> expected.put("c" + i, i));

    assertSame(row, expected);
    assertThat(row.get("c39")).isEqualTo(39);
    assertThat(row.containsKey("c40")).isFalse();
    row.put("c3", "three");
    expected.put("c3", "three");
    assertSame(row, expected);
  }

  @Test
  void columnsRefuseALabelTwiceAndAWrongNumberOfValues() {
    assertThatThrownBy(() -> RowMap.Columns.of(List.of("a", "b", "a")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'a' is given twice");
    assertThatThrownBy(() -> COLUMNS.row(new Object[2]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2 values for the columns [id, name, at]");
  }

  @Test
  void expressionsReachTheColumns() {
    Message message = Message.of(row());

    assertThat(Template.parse("t", "#[payload.name]").evaluate(message)).isEqualTo("first");
    assertThat(Template.parse("t", "#[payload['name']]").evaluate(message)).isEqualTo("first");
    assertThat(Template.parse("t", "#[payload.name.toUpperCase()]").evaluate(message))
        .isEqualTo("FIRST");
    assertThat(Template.parse("t", "#[payload.id + 1]").evaluate(message)).isEqualTo(2L);
    assertThat(Template.parse("t", "#[payload.at == null]").evaluate(message)).isEqualTo(true);
    assertThat(Template.parse("t", "#[payload.size()]").evaluate(message)).isEqualTo(3);
    assertThat(Template.parse("t", "row #[payload.id]: #[payload.name]").evaluate(message))
        .isEqualTo("row 1: first");
  }

  @Test
  void aRowWithNoColumnsIsAnEmptyMap() {
    RowMap row = RowMap.Columns.of(List.of()).row(new Object[0]);
    assertSame(row, new LinkedHashMap<>());
    assertThat(row.toString()).isEqualTo("{}");
  }
}
