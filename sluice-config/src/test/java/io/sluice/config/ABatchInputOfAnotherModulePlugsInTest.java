package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.groups.Tuple.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.batch.BatchInput;
import io.sluice.batch.config.BatchConfig;
import io.sluice.batch.config.BatchInputComponent;
import io.sluice.config.spi.ConfigComponent;
import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.SluiceException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A batch input kind that only this test has ({@code numbers}, a {@link BatchInputComponent}) plugs
 * in as a module's would: written by its key under {@code input:}, its keys in the schema among
 * {@code batchInput}'s and in its exactly-one-of rule, its problems (the schema's and its own)
 * reported at their lines; the built-in kinds are unchanged, and a kind claiming a built-in key
 * fails the assembly naming its class.
 */
class ABatchInputOfAnotherModulePlugsInTest {

  /** {@code numbers: { count: n }}: n generated records; 13 is refused by the mapper. */
  static final class NumbersInput implements BatchInputComponent {
    private final String key;

    NumbersInput(String key) {
      this.key = key;
    }

    @Override
    public String key() {
      return key;
    }

    @Override
    public JsonNode schema() {
      try {
        return new ObjectMapper()
            .readTree(
                """
                {"description": "Numbers from 0.", "type": "object", "additionalProperties": false,
                 "required": ["count"],
                 "properties": {"count": {"description": "How many. From 1 to 100.",
                   "type": "integer", "minimum": 1, "maximum": 100}}}
                """);
      } catch (java.io.IOException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public BatchInput map(ConfigNode node, MappingContext context) {
      int count = node.integer("count", 1);
      if (count == 13) {
        context.problems().add(node.get("count").path(), count, "is unlucky");
        return null;
      }
      return BatchInput.generator(count, i -> i);
    }
  }

  private static SchemaValidation with(String key) {
    List<ConfigComponent<?>> components =
        new ArrayList<>(
            ComponentRegistry.load(ABatchInputOfAnotherModulePlugsInTest.class.getClassLoader())
                .all());
    components.add(new NumbersInput(key));
    return new SchemaValidation(new ComponentRegistry(components));
  }

  private static final SchemaValidation WITH_NUMBERS = with("numbers");

  private static Configuration read(String yaml) {
    return ConfigLoader.read(
        "app.yaml",
        yaml,
        Configs.BASE,
        ABatchInputOfAnotherModulePlugsInTest.class.getClassLoader(),
        WITH_NUMBERS);
  }

  @Test
  void itsKeyIsAnInputKindOfTheSchema() throws Exception {
    JsonNode input = new ObjectMapper().readTree(WITH_NUMBERS.served()).at("/$defs/batchInput");

    assertThat(input.at("/properties/numbers/properties/count/maximum").asInt()).isEqualTo(100);
    assertThat(input.path("oneOf"))
        .extracting(branch -> branch.path("required").path(0).asText())
        .containsExactly("csv", "jsonLines", "generator", "source", "message", "query", "numbers");
    assertThat(input.path("description").asText())
        .endsWith("exactly one of csv, jsonLines, generator, source, message, query or numbers.");
  }

  @Test
  void aJobReadsItsRecordsFromIt() {
    BatchConfig batch =
        read("""
                batch:
                  - name: counted
                    input: { numbers: { count: 5 } }
                    steps: [ { name: load } ]
                """)
            .section(BatchConfig.class);

    assertThat(batch.jobs().getFirst().input().expectedRecords()).hasValue(5);
  }

  @Test
  void itsProblemsAndTheSchemasAreReportedAtTheirLines() {
    ConfigurationException e =
        catchThrowableOfType(
            ConfigurationException.class,
            () ->
                read(
                    """
                    batch:
                      - name: unlucky
                        input:
                          numbers: { count: 13 }
                        steps: [ { name: load } ]
                      - name: many
                        input:
                          numbers: { count: 500 }
                        steps: [ { name: load } ]
                      - name: two
                        input:
                          csv: in.csv
                          numbers: { count: 5 }
                        steps: [ { name: load } ]
                    """));

    assertThat(e).isNotNull();
    assertThat(e.problems())
        .extracting(ConfigProblem::path, ConfigProblem::source)
        .contains(
            tuple("batch[0].input.numbers.count", "app.yaml:4:18"),
            tuple("batch[1].input.numbers.count", "app.yaml:8:18"),
            tuple("batch[2].input", "app.yaml:11:5"));
    assertThat(e.problems())
        .filteredOn(p -> p.path().equals("batch[0].input.numbers.count"))
        .extracting(ConfigProblem::rule)
        .containsExactly("is unlucky");
    assertThat(e.problems())
        .filteredOn(p -> p.path().equals("batch[2].input"))
        .extracting(ConfigProblem::rule)
        .singleElement()
        .asString()
        .contains("numbers");
  }

  @Test
  void aKindClaimingABuiltInKeyFailsTheAssemblyNamingItsClass() {
    assertThatThrownBy(() -> with("csv"))
        .isInstanceOf(SluiceException.class)
        .hasMessageContaining(NumbersInput.class.getName())
        .hasMessageContaining("defines the batch input csv, which is defined otherwise already");
  }
}
