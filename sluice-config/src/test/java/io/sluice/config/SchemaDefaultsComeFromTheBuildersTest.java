package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The schema's defaults are the Java builders' own: one place for each default. */
class SchemaDefaultsComeFromTheBuildersTest {

  /** Defaults only the YAML has (a choice or template of the file), kept in the schema file. */
  private static final Set<String> YAML_ONLY =
      Set.of(
          "/$defs/batchJob/properties/threads",
          "/$defs/batchInput/properties/generator/properties/payload",
          "/$defs/strategy/properties/staged/properties/persistent",
          "/$defs/source/properties/scheduler/properties/startDelay",
          "/$defs/source/properties/vm-listener/properties/consumers",
          "/$defs/source/properties/vm-listener/properties/persistent",
          "/$defs/source/properties/http-listener/properties/path",
          "/$defs/source/properties/http-listener/properties/streaming",
          "/$defs/processor/properties/logger/properties/message",
          "/$defs/processor/properties/logger/properties/level",
          "/$defs/processor/properties/expression/properties/processingType",
          "/$defs/processor/properties/file-write/properties/fileName",
          "/$defs/processor/properties/file-write/properties/mode",
          "/$defs/processor/properties/http-request/properties/method",
          "/$defs/vmPublish/properties/persistent",
          "/$defs/processor/properties/until-successful/properties/persistent",
          "/$defs/processor/properties/aggregate/properties/persistent");

  @Test
  void threadingProfilesAndFileSourcesDefaultTo16AsTheBuildersDo() throws IOException {
    JsonNode schema = EverySchemaPropertyHasADescriptionTest.schema();
    assertThat(schema.at("/$defs/threadingProfile/properties/maxThreadsActive/default").asInt())
        .isEqualTo(16);
    assertThat(
            schema
                .at("/$defs/source/properties/file/properties/maxConcurrentFiles/default")
                .asInt())
        .isEqualTo(16);
    assertThat(schema.at("/$defs/threadingProfile/properties/idleTtl/default").asText())
        .isEqualTo("1m");
    assertThat(schema.at("/properties/serialization/properties/maxSize/default").asText())
        .isEqualTo("64MB");
    assertThat(
            schema.at("/properties/sluice/properties/jobs/properties/acquisition/default").asText())
        .isEqualTo("skip-locked");
  }

  @Test
  void everyDefaultServedIsTheBuildersOrOneOnlyTheYamlHas() throws IOException {
    JsonNode schema = EverySchemaPropertyHasADescriptionTest.schema();
    Set<String> served = new TreeSet<>();
    EverySchemaPropertyHasADescriptionTest.forEachSchema(
        schema,
        "",
        (pointer, node) -> {
          if (node.has("default")) {
            served.add(pointer);
          }
        });
    Set<String> expected = new TreeSet<>(SchemaDefaults.table().keySet());
    expected.addAll(YAML_ONLY);
    assertThat(served).isEqualTo(expected);
    SchemaDefaults.table()
        .forEach(
            (pointer, value) ->
                assertThat(schema.at(pointer + "/default"))
                    .as(pointer)
                    .isEqualTo(SchemaDefaults.json(value)));
  }

  @Test
  void durationsAndSizesAreWrittenWithTheirLargestWholeUnit() {
    assertThat(SchemaDefaults.duration(java.time.Duration.ofSeconds(30))).isEqualTo("30s");
    assertThat(SchemaDefaults.duration(java.time.Duration.ofMinutes(10))).isEqualTo("10m");
    assertThat(SchemaDefaults.duration(java.time.Duration.ofMillis(250))).isEqualTo("250ms");
    assertThat(SchemaDefaults.duration(java.time.Duration.ZERO)).isEqualTo("0s");
    assertThat(SchemaDefaults.size(8192)).isEqualTo("8KB");
    assertThat(SchemaDefaults.size(10L * 1024 * 1024)).isEqualTo("10MB");
    assertThat(SchemaDefaults.size(1000)).isEqualTo("1000B");
  }
}
