package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.config.spi.ConfigComponent;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Without the module that brings the read processor, the schema still assembles (the sources'
 * {@code read:} refers to it) and a {@code read:} in a source is refused, saying what is missing.
 */
class AReferenceToAnAbsentProcessorIsRefusedNotBrokenTest {

  private static ComponentRegistry withoutRead() {
    List<ConfigComponent<?>> all =
        ComponentRegistry.INSTANCE.all().stream().filter(c -> !c.key().equals("read")).toList();
    return new ComponentRegistry(all);
  }

  @Test
  void aSourcesReadIsRefusedNamingTheMissingProcessor() {
    SchemaValidation validation = new SchemaValidation(withoutRead());
    ConfigurationException e =
        org.assertj.core.api.Assertions.catchThrowableOfType(
            ConfigurationException.class,
            () ->
                ConfigLoader.read(
                    "app.yaml",
                    """
                    flows:
                      - name: orders
                        source:
                          file: { directory: in, read: { format: csv } }
                    """,
                    Configs.BASE,
                    Configs.class.getClassLoader(),
                    validation));
    assertThat(e).isNotNull();
    assertThat(e.problems()).extracting(ConfigProblem::path).contains("flows[0].source.file.read");
    assertThat(validation.served()).contains("The 'read' processor is not installed here.");
  }
}
