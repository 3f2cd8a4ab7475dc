package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.app.Application;
import io.sluice.core.expression.Template;
import io.sluice.core.processor.LoggerProcessor;
import io.sluice.core.store.StorageConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every form of placeholder, and where {@code ${NAME}} looks first. */
class PlaceholdersAreResolvedBeforeValidationTest {

  @TempDir Path temp;

  private static final String STORE =
      """
      sluice:
        store:
          url: jdbc:postgresql://${DB_HOST}:${DB_PORT:5432}/sluice
          user: ${env:DB_USER}
          password: ${sys:db.password}
      flows:
        - name: ${FLOW:orders}
      """;

  private static Application build(String yaml, PropertySources sources) {
    return Configs.read(yaml, sources).application().build();
  }

  @Test
  void eachFormFindsItsValueAndSeveralMixWithTextInOneValue() {
    PropertySources sources =
        PropertySources.builder()
            .environment(Map.of("DB_HOST", "db.example", "DB_USER", "app"))
            .systemProperties(Map.of("db.password", "pw-from-sys"))
            .build();

    Application app = build(STORE, sources);

    StorageConfig store = app.storageConfig();
    assertThat(store.url()).isEqualTo("jdbc:postgresql://db.example:5432/sluice");
    assertThat(store.user()).isEqualTo("app");
    assertThat(store.password()).isEqualTo("pw-from-sys");
    assertThat(app.flows().getFirst().name()).isEqualTo("orders");
  }

  @Test
  void givenPropertiesWinOverLaterFilesOverEarlierFilesOverSystemPropertiesOverTheEnvironment()
      throws IOException {
    Path base = Files.writeString(temp.resolve("base.properties"), "A=base\nB=base\nC=base\n");
    Path prod = Files.writeString(temp.resolve("prod.properties"), "B=prod\nC=prod\n");
    PropertySources sources =
        PropertySources.builder()
            .propertiesFile(base)
            .propertiesFile(prod)
            .property("C", "given")
            .systemProperties(Map.of("A", "sys", "D", "sys"))
            .environment(Map.of("A", "env", "D", "env", "E", "env"))
            .build();
    String yaml =
        """
        flows:
          - name: f
            processors:
              - logger: { message: "${A} ${B} ${C} ${D} ${E}" }
        """;

    assertThat(message(build(yaml, sources))).isEqualTo("base prod given sys env");
  }

  @Test
  void theEnvironmentAndSystemPropertyFormsLookOnlyThere() {
    PropertySources sources =
        PropertySources.builder()
            .property("X", "given")
            .systemProperties(Map.of("X", "sys"))
            .environment(Map.of("X", "env"))
            .build();
    String yaml =
        """
        flows:
          - name: f
            processors:
              - logger: { message: "${env:X} ${sys:X} ${X} ${env:Y:none} ${sys:Y:}." }
        """;

    assertThat(message(build(yaml, sources))).isEqualTo("env sys given none .");
  }

  @Test
  void anEmptyDefaultGivesAnEmptyTextAndAnUnknownPrefixIsANameWithADefault() {
    String yaml =
        """
        flows:
          - name: f
            processors:
              - logger: { message: "[${EMPTY:}] [${foo:bar}] [${URL:http://host:80/x}]" }
        """;

    assertThat(message(build(yaml, Configs.environment(Map.of()))))
        .isEqualTo("[] [bar] [http://host:80/x]");
  }

  @Test
  void aDoubledDollarIsALiteralPlaceholderAndALoneDollarStays() {
    String yaml =
        """
        flows:
          - name: f
            processors:
              - logger: { message: "$${HOME} costs $5 and ${PRICE}$" }
        """;

    assertThat(message(build(yaml, Configs.environment(Map.of("PRICE", "7")))))
        .isEqualTo("${HOME} costs $5 and 7$");
  }

  @Test
  void placeholdersInsideExpressionsAreResolvedBeforeTheExpressionCompiles() {
    String yaml =
        """
        flows:
          - name: f
            processors:
              - logger: { message: "#[payload + '${SUFFIX}']" }
        """;

    assertThat(message(build(yaml, Configs.environment(Map.of("SUFFIX", "-eu")))))
        .isEqualTo("#[payload + '-eu']");
  }

  @Test
  void keysAreNotResolvedAndAnAliasCopiesTheResolvedValue() {
    String yaml =
        """
        flows:
          - name: &name ${FLOW}
            processors:
              - logger: { message: *name }
        """;

    Application app = build(yaml, Configs.environment(Map.of("FLOW", "orders")));

    assertThat(app.flows().getFirst().name()).isEqualTo("orders");
    assertThat(message(app)).isEqualTo("orders");
    assertThat(
            Configs.problems(
                    """
                    flows:
                      - name: f
                        ${KEY}: x
                    """,
                    Configs.environment(Map.of("KEY", "name")))
                .getFirst()
                .value())
        .isEqualTo("${KEY}");
  }

  private static String message(Application app) {
    LoggerProcessor logger = (LoggerProcessor) app.flows().getFirst().processors().getFirst();
    return Fields.ofType(logger, Template.class).text();
  }
}
