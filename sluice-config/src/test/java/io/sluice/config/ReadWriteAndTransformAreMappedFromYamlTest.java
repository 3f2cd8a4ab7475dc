package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.app.Application;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.formats.Format;
import io.sluice.formats.ReadConfig;
import io.sluice.formats.ReadProcessor;
import io.sluice.formats.WriteConfig;
import io.sluice.formats.WriteProcessor;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReadWriteAndTransformAreMappedFromYamlTest {

  private static List<Processor> processors(String yaml) {
    Application app = Configs.build(yaml);
    return app.flows().getFirst().processors();
  }

  @Test
  void everyKeyOfReadIsRead() {
    ReadProcessor read =
        (ReadProcessor)
            processors(
                    """
                    flows:
                      - name: f
                        processors:
                          - read:
                              format: csv
                              target: rows
                              streaming: true
                              header: false
                              separator: ";"
                              quote: "'"
                              maxDepth: 40
                              maxSize: 2MB
                              processingType: CPU_INTENSIVE
                    """)
                .getFirst();

    assertThat(read.config())
        .isEqualTo(
            new ReadConfig(
                Format.CSV,
                "rows",
                true,
                false,
                ';',
                '\'',
                40,
                2 << 20,
                ProcessingType.CPU_INTENSIVE));
  }

  @Test
  void aMimeTypeNamesTheFormatAndNothingElseIsNeeded() {
    List<Processor> processors =
        processors(
            """
            flows:
              - name: f
                processors:
                  - read: { mimeType: application/vnd.api+json }
                  - read:
            """);

    assertThat(((ReadProcessor) processors.get(0)).config().format()).isEqualTo(Format.JSON);
    assertThat(((ReadProcessor) processors.get(1)).config())
        .isEqualTo(ReadConfig.builder().build());
  }

  @Test
  void everyKeyOfWriteIsRead() {
    WriteProcessor write =
        (WriteProcessor)
            processors(
                    """
                    flows:
                      - name: f
                        processors:
                          - write:
                              format: CSV
                              value: "#[vars.rows]"
                              target: csv
                              output: bytes
                              pretty: true
                              header: false
                              columns: [sku, quantity]
                              separator: "\\t"
                              quote: "'"
                              rootElement: orders
                              processingType: BLOCKING_IO
                    """)
                .getFirst();

    WriteConfig config = write.config();
    assertThat(config.value().text()).isEqualTo("#[vars.rows]");
    assertThat(config)
        .isEqualTo(
            new WriteConfig(
                Format.CSV,
                config.value(),
                "csv",
                WriteConfig.Output.BYTES,
                true,
                false,
                List.of("sku", "quantity"),
                '\t',
                '\'',
                "orders",
                ProcessingType.BLOCKING_IO));
  }

  @Test
  void aWriteNeedsOnlyItsFormat() {
    WriteProcessor write =
        (WriteProcessor)
            processors("flows: [ { name: f, processors: [ { write: { format: yaml } } ] } ]")
                .getFirst();

    assertThat(write.config()).isEqualTo(WriteConfig.builder(Format.YAML).build());
  }

  @Test
  void aTransformsTargetAndProcessingTypeAreRead() {
    Processor transform =
        processors(
                """
                flows:
                  - name: f
                    processors:
                      - transform:
                          template: { id: "#[payload]" }
                          target: summary
                          processingType: CPU_INTENSIVE
                """)
            .getFirst();

    assertThat(transform.name()).isEqualTo("transform");
    assertThat(transform.processingType()).isEqualTo(ProcessingType.CPU_INTENSIVE);
    assertThat(transform).hasToString("transform into summary");
  }
}
