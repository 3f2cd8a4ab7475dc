package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.sluice.core.ConfigProblem;
import io.sluice.core.file.FileSourceConfig;
import io.sluice.core.flow.Flow;
import io.sluice.http.HttpListenerSource;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A plain value that is one placeholder is typed as YAML types the resolved text written plain; a
 * quoted one stays text.
 */
class APlainPlaceholderIsTypedByItsValueTest {

  private static final PropertySources SOURCES =
      Configs.environment(Map.of("PORT", "8080", "STREAMING", "true", "WORD", "eighty"));

  @Test
  void aPlainPortPlaceholderIsTheIntegerTheSchemaWants() {
    Flow flow =
        Configs.read(
                """
                flows:
                  - name: api
                    source:
                      http-listener:
                        port: ${PORT}
                        path: /orders
                """,
                SOURCES)
            .application()
            .build()
            .flows()
            .getFirst();

    assertThat(((HttpListenerSource) flow.source()).server().port()).isEqualTo(8080);
  }

  @Test
  void aPlainBooleanPlaceholderIsABoolean() {
    Flow flow =
        Configs.read(
                """
                flows:
                  - name: big
                    source:
                      file:
                        directory: in
                        streaming: ${STREAMING}
                    sinks:
                      - file-write: { directory: out }
                """,
                SOURCES)
            .application()
            .build()
            .flows()
            .getFirst();

    assertThat(Fields.ofType(flow.source(), FileSourceConfig.class).streaming()).isTrue();
  }

  @Test
  void aQuotedPlaceholderStaysTextAndSoDoesAPlaceholderWithOtherText() {
    assertThat(
            Configs.problems(
                """
                flows:
                  - name: api
                    source:
                      http-listener: { port: "${PORT}", path: /a }
                  - name: api2
                    source:
                      http-listener:
                        port: ${PORT}0
                        path: /b
                  - name: api3
                    source:
                      http-listener:
                        port: ${WORD}
                        path: /c
                """,
                SOURCES))
        .extracting(ConfigProblem::path, ConfigProblem::value, ConfigProblem::rule)
        .containsExactly(
            tuple(
                "flows[0].source.http-listener.port",
                "8080",
                "must be an integer, not a string (resolved from ${PORT})"),
            tuple(
                "flows[1].source.http-listener.port",
                "80800",
                "must be an integer, not a string (resolved from ${PORT}0)"),
            tuple(
                "flows[2].source.http-listener.port",
                "eighty",
                "must be an integer, not a string (resolved from ${WORD})"));
  }

  @Test
  void onlyNumbersAndBooleansAreTypedSoNullAndAnEmptyValueStayText() {
    var problems =
        Configs.problems(
            """
            flows:
              - name: ${NULL}
              - name: ${EMPTY:}
            """,
            Configs.environment(Map.of("NULL", "null")));

    assertThat(problems)
        .extracting(ConfigProblem::path, ConfigProblem::value)
        .containsExactly(tuple("flows[1].name", ""));
    assertThat(problems.getFirst().rule()).startsWith("must match the pattern");
  }
}
