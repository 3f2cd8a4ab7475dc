package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A message's few variables are kept in a {@link SmallMap}: in the order first set, a value
 * replaced in its place, a removal gone, the message before unchanged, equal to any map of the same
 * entries, and nothing can change it from outside.
 */
class VariablesAreASmallMapThatChangesByCopyTest {

  @Test
  void settingVariablesOneAtATimeKeepsTheirOrderAndLeavesEarlierMessagesAlone() {
    Message first = Message.of("x").withVariable("a", 1).withVariable("b", 2);
    Message second = first.withVariable("c", 3).withVariable("a", 10);
    Message third = second.withVariable("b", null);

    assertThat(List.copyOf(second.variables().keySet())).containsExactly("a", "b", "c");
    assertThat(second.variables()).isEqualTo(Map.of("a", 10, "b", 2, "c", 3));
    assertThat(second.variable("a")).isEqualTo(10);
    assertThat(first.variables()).isEqualTo(Map.of("a", 1, "b", 2));
    assertThat(third.variables()).isEqualTo(Map.of("a", 10, "c", 3));
    assertThat(List.copyOf(third.variables().keySet()))
        .as("a removal keeps the others' order")
        .containsExactly("a", "c");
    assertThat(List.copyOf(third.withVariable("d", 4).variables().keySet()))
        .containsExactly("a", "c", "d");
    assertThat(third.variables().containsKey("b")).isFalse();
    assertThat(third.variable("b")).isNull();
    assertThat(second.variables().hashCode())
        .isEqualTo(new HashMap<>(second.variables()).hashCode());
  }

  @Test
  void manyVariablesStillWorkAndNothingChangesThemFromOutside() {
    Message message = Message.of("x");
    for (int i = 0; i < 20; i++) {
      message = message.withVariable("v" + i, i);
    }
    for (int i = 0; i < 20; i++) {
      assertThat(message.variable("v" + i)).isEqualTo(i);
    }
    assertThat(message.variables()).hasSize(20);
    assertThat(List.copyOf(message.variables().keySet()))
        .as("past eight, still in the order set")
        .startsWith("v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9");
    Message eight = Message.of("x");
    for (int i = 0; i < 8; i++) {
      eight = eight.withVariable("v" + i, i);
    }
    assertThat(eight.withVariable("v3", 30).variables())
        .as("replacing one of eight keeps the small map")
        .isInstanceOf(SmallMap.class)
        .containsEntry("v3", 30)
        .hasSize(8);
    Map<String, Object> few = Message.of("x").withVariable("a", 1).variables();
    assertThatThrownBy(() -> few.put("b", 2)).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> few.remove("a")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> few.entrySet().iterator().remove())
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(Message.of("y").withVariables(few).variables()).isSameAs(few);
  }
}
