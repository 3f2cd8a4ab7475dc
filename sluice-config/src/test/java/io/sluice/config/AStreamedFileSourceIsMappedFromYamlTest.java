package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.file.FileSourceConfig;
import io.sluice.core.flow.Flow;
import org.junit.jupiter.api.Test;

/** {@code streaming} on a file source, from YAML. */
class AStreamedFileSourceIsMappedFromYamlTest {

  @Test
  void streamingTrueReachesTheSource() {
    Flow flow =
        Configs.build(
                """
        flows:
          - name: big
            source: { file: { directory: in, streaming: true } }
            sinks:
              - file-write: { directory: out }
        """)
            .flows()
            .get(0);

    assertThat(Fields.ofType(flow.source(), FileSourceConfig.class).streaming()).isTrue();
  }

  @Test
  void aStreamingThatIsNotABooleanIsRefusedAtItsLine() {
    String rule =
        Configs.rule(
            """
            flows:
              - name: big
                source: { file: { directory: in, streaming: sometimes } }
                sinks:
                  - file-write: { directory: out }
            """,
            "flows[0].source.file.streaming");

    assertThat(rule).contains("boolean");
  }

  @Test
  void aStreamingSourceOnAPersistentFlowIsRefusedByValidate() {
    String rule =
        Configs.rule(
            """
            flows:
              - name: kept
                strategy: { staged: { persistent: true } }
                source: { file: { directory: in, streaming: true } }
            """,
            "flows[0].strategy");

    assertThat(rule).startsWith("cannot keep the streams its source hands over");
  }
}
