package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.config.spi.ComponentKind;
import io.sluice.config.spi.ConfigComponent;
import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProcessorComponent;
import io.sluice.core.SluiceException;
import io.sluice.core.spi.Processor;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Two components that claim one key, or one $defs name otherwise, stop the reader at once. */
class ComponentsThatClashAreRefusedTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A processor {@code key} whose schema is {@code schema}. */
  private record Fake(String key, String schemaText) implements ProcessorComponent {
    @Override
    public JsonNode schema() {
      try {
        return JSON.readTree(schemaText);
      } catch (Exception e) {
        throw new IllegalArgumentException(e);
      }
    }

    @Override
    public Processor map(ConfigNode node, MappingContext context) {
      return message -> message;
    }
  }

  @Test
  void twoProcessorsOfOneKeyAreRefusedNamingBoth() {
    assertThatThrownBy(
            () -> new ComponentRegistry(List.of(new Fake("echo", "{}"), new Fake("echo", "{}"))))
        .isInstanceOf(SluiceException.class)
        .hasMessageContaining("two components claim the processor key echo");
  }

  @Test
  void aKindConfigurationFilesCannotHoldYetIsRefused() {
    ConfigComponent<Object> store =
        new ConfigComponent<>() {
          @Override
          public String key() {
            return "redis";
          }

          @Override
          public ComponentKind kind() {
            return ComponentKind.STORE;
          }

          @Override
          public Object map(ConfigNode node, MappingContext context) {
            return null;
          }
        };

    assertThatThrownBy(() -> new ComponentRegistry(List.of(store)))
        .isInstanceOf(SluiceException.class)
        .hasMessageContaining("is a STORE component, which configuration files cannot hold yet");
  }

  @Test
  void aDefinitionGivenOtherwiseTwiceIsRefused() {
    ComponentRegistry registry =
        new ComponentRegistry(
            List.of(
                new Fake("one", "{\"$defs\": {\"shared\": {\"type\": \"string\"}}}"),
                new Fake("two", "{\"$defs\": {\"shared\": {\"type\": \"integer\"}}}")));
    ObjectNode frame = JSON.createObjectNode();
    frame.putObject("$defs").putObject("processor").putObject("properties");

    assertThatThrownBy(() -> SchemaAssembly.assemble(frame, registry))
        .isInstanceOf(SluiceException.class)
        .hasMessageContaining("defines $defs/shared, which is defined otherwise already");
  }
}
