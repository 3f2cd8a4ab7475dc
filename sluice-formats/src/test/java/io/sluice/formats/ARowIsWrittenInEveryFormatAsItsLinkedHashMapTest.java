package io.sluice.formats;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import io.sluice.core.RowMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A database row ({@link RowMap}) is written in every format exactly as the {@link LinkedHashMap}
 * of the same columns, a null column included.
 */
class ARowIsWrittenInEveryFormatAsItsLinkedHashMapTest {

  @ParameterizedTest
  @EnumSource(Format.class)
  void aRowIsWrittenAsTheLinkedHashMapOfItsColumns(Format format) {
    RowMap.Columns columns = RowMap.Columns.of(List.of("id", "name", "note", "amount"));
    LinkedHashMap<String, Object> linked = new LinkedHashMap<>();
    linked.put("id", 7L);
    linked.put("name", "seventh");
    linked.put("note", null);
    linked.put("amount", 12.5);
    Object row = columns.row(new Object[] {7L, "seventh", null, 12.5});
    Object other = columns.row(new Object[] {8L, "eighth", "n", 1.0});
    Map<String, Object> otherLinked =
        new LinkedHashMap<>(columns.row(new Object[] {8L, "eighth", "n", 1.0}));

    Object rows = format == Format.CSV ? List.of(row, other) : row;
    Object expected = format == Format.CSV ? List.of(linked, otherLinked) : linked;

    assertThat(WriteProcessor.of(format).process(Message.of(rows)).payload())
        .isEqualTo(WriteProcessor.of(format).process(Message.of(expected)).payload());
  }
}
