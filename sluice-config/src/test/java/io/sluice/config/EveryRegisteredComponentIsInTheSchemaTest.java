package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.config.spi.ConfigComponent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The schema is assembled from the components found: each is in it, described, and none lost. */
class EveryRegisteredComponentIsInTheSchemaTest {

  private final ComponentRegistry registry = ComponentRegistry.INSTANCE;

  @Test
  void everyRegisteredComponentHasItsDescribedPlaceInTheSchema() throws Exception {
    JsonNode schema = new ObjectMapper().readTree(ConfigLoader.schema());
    for (ConfigComponent<?> component : registry.all()) {
      JsonNode place = schema.at(SchemaAssembly.pointer(component));
      assertThat(place.path("description").asText())
          .as(component.kind() + " " + component.key())
          .isNotBlank();
    }
  }

  @Test
  void theComponentsOfTheCommandsClassPathAreAllFoundInTheirOrder() {
    assertThat(registry.sources().keySet())
        .containsExactly("file", "scheduler", "vm-listener", "db-poll", "http-listener");
    assertThat(registry.processors().keySet())
        .containsExactly(
            "logger",
            "set-payload",
            "set-variable",
            "expression",
            "component",
            "async",
            "choice",
            "foreach",
            "parallel-foreach",
            "scatter-gather",
            "first-successful",
            "round-robin",
            "until-successful",
            "split",
            "aggregate",
            "try",
            "flow-ref",
            "vm-publish",
            "vm-request",
            "file-write",
            "store-put",
            "store-get",
            "store-remove",
            "batch-execute",
            "db-select",
            "db-insert",
            "db-update",
            "db-delete",
            "db-execute",
            "db-bulk",
            "read",
            "write",
            "transform",
            "http-request");
    assertThat(registry.sections())
        .extracting(ConfigComponent::key)
        .isEqualTo(List.of("sluice.jobs", "batch", "dataSources"));
    assertThat(registry.stores().keySet()).containsExactly("sqlite", "postgresql", "memory");
  }
}
