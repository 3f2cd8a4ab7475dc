package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MessagesAreImmutableTest {

  @Test
  void everyWithMethodReturnsANewMessageAndLeavesTheOriginalAlone() {
    Message original = Message.of("p", Map.of("a", 1));
    Message changed =
        original
            .withPayload("q")
            .withAttribute("b", 2)
            .withVariable("v", 3)
            .withError(new FlowError("f", "p", new RuntimeException()));
    assertThat(changed).isNotSameAs(original);
    assertThat(original.payload()).isEqualTo("p");
    assertThat(original.attributes()).containsExactly(Map.entry("a", 1));
    assertThat(original.variables()).isEmpty();
    assertThat(original.error()).isEmpty();
    assertThat(changed.attributes()).containsOnlyKeys("a", "b");
    assertThat(changed.withVariable("v", null).variables()).isEmpty();
  }

  @Test
  void aPayloadAndAVariableSetInOneCopyAreAsTheTwoCopiesMadeThem() {
    Message original = Message.of("p", Map.of("a", 1)).withVariable("v", 0).withVariable("w", 9);
    Message once = original.withPayloadAndVariable("q", "v", 1);
    Message twice = original.withPayload("q").withVariable("v", 1);
    assertThat(once.payload()).isEqualTo(twice.payload());
    assertThat(once.variables()).isEqualTo(twice.variables()).containsEntry("v", 1);
    assertThat(once.attributes()).isEqualTo(twice.attributes());
    assertThat(once.id()).isEqualTo(original.id());
    assertThat(original.payload()).isEqualTo("p");
    assertThat(original.variables()).containsEntry("v", 0);
    assertThat(original.withPayloadAndVariable("q", "w", null).variables()).containsOnlyKeys("v");
  }

  @Test
  void theMapsCannotBeChangedFromOutside() {
    Map<String, Object> attributes = new HashMap<>(Map.of("a", 1));
    Message message = Message.of("p", attributes).withVariable("v", 1);
    attributes.put("b", 2);
    assertThat(message.attributes()).containsOnlyKeys("a");
    assertThatThrownBy(() -> message.attributes().put("x", 1))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> message.variables().put("x", 1))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> message.withAttributes(attributes).attributes().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aPayloadOfTheWrongTypeIsAClearError() {
    assertThatThrownBy(() -> Message.of(42).payload(String.class))
        .isInstanceOf(ClassCastException.class)
        .hasMessage("payload is a java.lang.Integer, not a java.lang.String");
  }
}
