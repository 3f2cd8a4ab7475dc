package io.sluice.serializers;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import io.sluice.core.RowMap;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.StoredMessage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A database row ({@link RowMap}) is a payload users keep and store: every serializer writes it,
 * alone, in a list, in a stored message and after it gained a key, and reads it back as the {@link
 * LinkedHashMap} of the same entries in the same order, a null column included.
 */
class ARowIsStoredByEverySerializerTest {

  private static final RowMap.Columns COLUMNS =
      RowMap.Columns.of(List.of("id", "name", "note", "amount"));

  private static RowMap row(long id) {
    return COLUMNS.row(new Object[] {id, "row-" + id, null, id * 1.5});
  }

  @ParameterizedTest
  @ValueSource(strings = {"jdk", "kryo", "fory"})
  void aRowIsStoredAndReadBackAsAnEqualLinkedHashMap(String serializer) {
    StoredValues values =
        StoredValues.create(SerializationConfig.builder().serializer(serializer).build());
    RowMap row = row(1);

    Object back = values.read(values.write(row));
    assertThat(back).isInstanceOf(LinkedHashMap.class).isEqualTo(row);
    assertThat(row).isEqualTo(back);
    assertThat(new ArrayList<Object>(((Map<?, ?>) back).keySet()))
        .containsExactly("id", "name", "note", "amount");
    assertThat(((Map<?, ?>) back).containsKey("note")).isTrue();

    List<RowMap> rows = List.of(row(1), row(2), row(3));
    assertThat(values.read(values.write(new ArrayList<>(rows)))).isEqualTo(rows);

    RowMap changed = row(4);
    changed.put("extra", "added");
    changed.remove("id");
    Object changedBack = values.read(values.write(changed));
    assertThat(changedBack).isEqualTo(changed);
    assertThat(new ArrayList<Object>(((Map<?, ?>) changedBack).keySet()))
        .containsExactly("name", "note", "amount", "extra");

    StoredMessage stored = StoredMessage.of(Message.of(row(5)).withVariable("row", row(6)));
    Object storedBack = values.read(values.write(stored));
    assertThat(((StoredMessage) storedBack).payload()).isEqualTo(row(5));
    assertThat(((StoredMessage) storedBack).variables()).isEqualTo(Map.of("row", row(6)));
  }
}
