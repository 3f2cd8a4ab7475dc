package io.sluice.db;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.batch.BatchJob;
import io.sluice.batch.config.BatchConfig;
import io.sluice.config.ConfigLoader;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The query input part of docs/configuration.md: it names every key of the schema, and its example
 * (a table copied through a query and an aggregator's db-bulk) loads.
 */
class QueryInputGuideIsTrueTest {

  private static String part() throws Exception {
    String guide = Files.readString(Path.of("../docs/configuration.md"));
    int start = guide.indexOf("**A query** (`input: { query: … }`");
    int end = guide.indexOf("**Output** (`output`)", start);
    assertThat(start).as("the query part of the guide").isPositive();
    return guide.substring(start, end);
  }

  @Test
  void theGuideNamesEveryKeyOfTheSchema() throws Exception {
    String part = part();
    JsonNode schema;
    try (InputStream in =
        getClass().getResourceAsStream("/io/sluice/db/config/query.schema.json")) {
      schema = new ObjectMapper().readTree(in);
    }
    schema
        .path("properties")
        .fieldNames()
        .forEachRemaining(key -> assertThat(part).contains("| `" + key + "` |"));
  }

  @Test
  void theGuidesExampleLoads() throws Exception {
    String part = part();
    int open = part.indexOf("```\n") + 4;
    String yaml = part.substring(open, part.indexOf("```", open));

    BatchJob job =
        ConfigLoader.read("app.yaml", yaml, Path.of("."), getClass().getClassLoader())
            .section(BatchConfig.class)
            .jobs()
            .getFirst();

    QueryInput input = (QueryInput) job.input();
    assertThat(input.config().bindsAfter()).isTrue();
    assertThat(input.config().keyColumn()).isEqualTo("id");
    assertThat(job.steps().getFirst().aggregator().size()).isEqualTo(1000);
    assertThat(job.steps().getFirst().aggregator().sink())
        .singleElement()
        .isInstanceOfSatisfying(
            DbBulkProcessor.class, bulk -> assertThat(bulk.name()).isEqualTo("db-bulk"));
  }
}
