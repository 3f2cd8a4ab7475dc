package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.core.app.Application;
import io.sluice.db.DbPollSource;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The db-poll part of docs/configuration.md: it names every key of the schema, and its example
 * loads (sluice-config's own guide test cannot: sluice-db is not on its class path).
 */
class DbPollGuideIsTrueTest {

  private static String part() throws Exception {
    String guide = Files.readString(Path.of("../docs/configuration.md"));
    int start = guide.indexOf("`db-poll`: runs a query");
    int end = guide.indexOf("### Processors", start);
    assertThat(start).as("the db-poll part of the guide").isPositive();
    return guide.substring(start, end);
  }

  @Test
  void theGuideNamesEveryKeyOfTheSchema() throws Exception {
    String part = part();
    JsonNode schema;
    try (InputStream in =
        getClass().getResourceAsStream("/io/sluice/db/config/db-poll.schema.json")) {
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

    try (Application app =
        ConfigLoader.parse("app.yaml", yaml, Path.of("."), getClass().getClassLoader()).build()) {
      DbPollSource source = (DbPollSource) app.flows().getFirst().source();
      assertThat(source.config().watermarkColumn()).isEqualTo("id");
      assertThat(source.config().maxRows()).isEqualTo(500);
    }
  }
}
