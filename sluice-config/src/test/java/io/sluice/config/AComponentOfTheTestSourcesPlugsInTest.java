package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A component that only the test sources have ({@code shout}, registered in {@code
 * plugin/META-INF/services}, kept off the other tests' class path) plugs in as a module's would: it
 * is in the schema with its description and default, its values are validated, and it maps and runs
 * in a flow; the configuration reader names it nowhere.
 */
class AComponentOfTheTestSourcesPlugsInTest {

  private static final SchemaValidation WITH_SHOUT = new SchemaValidation(registry());

  private static ComponentRegistry registry() {
    URL plugin = AComponentOfTheTestSourcesPlugsInTest.class.getResource("/plugin/");
    return ComponentRegistry.load(
        new URLClassLoader(
            new URL[] {plugin}, AComponentOfTheTestSourcesPlugsInTest.class.getClassLoader()));
  }

  private static Configuration read(String yaml) {
    return ConfigLoader.read(
        "app.yaml", yaml, Configs.BASE, Configs.class.getClassLoader(), WITH_SHOUT);
  }

  @Test
  void itIsInTheSchemaWithItsDescriptionAndDefault() throws Exception {
    JsonNode schema = new ObjectMapper().readTree(WITH_SHOUT.served());
    JsonNode shout = schema.at("/$defs/processor/properties/shout");

    assertThat(shout.path("description").asText()).startsWith("Shouts the payload");
    assertThat(shout.at("/properties/marks/description").asText()).startsWith("How many");
    assertThat(shout.at("/properties/marks/default").asInt()).isEqualTo(1);
    JsonNode others =
        new ObjectMapper().readTree(ConfigLoader.schema()).at("/$defs/processor/properties");
    assertThat(others.has("shout")).as("in the other tests' schema").isFalse();
  }

  @Test
  void aBadValueIsReportedWithItsPathValueRuleAndLine() {
    ConfigurationException e =
        catchThrowableOfType(
            ConfigurationException.class,
            () ->
                read(
                    """
                    flows:
                      - name: loud
                        processors:
                          - shout: { marks: 11 }
                    """));

    assertThat(e).isNotNull();
    assertThat(e.problems())
        .extracting(ConfigProblem::path, ConfigProblem::value, ConfigProblem::rule)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "flows[0].processors[0].shout.marks", 11, "must be at most 10"));
    assertThat(e.problems().getFirst().source()).isEqualTo("app.yaml:4:18");
  }

  @Test
  void itMapsAndRunsInAFlow() throws Exception {
    Application.Builder builder =
        read("""
                flows:
                  - name: loud
                    processors:
                      - shout: { marks: 3 }
                      - shout:
                """)
            .application();

    try (Application application = builder.build()) {
      application.start();
      Message answer = application.send("loud", Message.of("hello")).get(10, TimeUnit.SECONDS);

      assertThat(answer.payload()).isEqualTo("HELLO!!!!");
    }
  }
}
