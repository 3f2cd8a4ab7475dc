package io.sluice.serializers;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.StoredMessage;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A message's own variables and attributes maps may become a payload ({@code set-payload:
 * "#[vars]"}) that a persistent queue then stores: every serializer writes them and reads them back
 * as an equal map, in a stored message and as a value of their own.
 */
class AMessagesOwnMapsAreStoredByEverySerializerTest {

  @ParameterizedTest
  @ValueSource(strings = {"jdk", "kryo", "fory"})
  void theVariablesAsAPayloadAreStoredAndReadBack(String serializer) {
    StoredValues values =
        StoredValues.create(SerializationConfig.builder().serializer(serializer).build());
    Message message =
        Message.of("x").withVariable("a", 1).withVariable("b", "two").withAttribute("c", 3L);
    Map<String, Object> variables = message.variables();

    assertThat(values.read(values.write(Map.of("p", 1, "q", 2)))).isEqualTo(Map.of("p", 1, "q", 2));
    assertThat(values.read(values.write(variables))).isEqualTo(Map.of("a", 1, "b", "two"));
    StoredMessage stored = StoredMessage.of(message.withPayload(message.attributes()));
    Object back = values.read(values.write(stored));
    assertThat(back).isInstanceOf(StoredMessage.class);
    assertThat(((StoredMessage) back).payload()).isEqualTo(Map.of("c", 3L));
    assertThat(((StoredMessage) back).variables()).isEqualTo(Map.of("a", 1, "b", "two"));
  }
}
