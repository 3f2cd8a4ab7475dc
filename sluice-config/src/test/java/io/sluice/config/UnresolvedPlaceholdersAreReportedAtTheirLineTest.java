package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A placeholder that is not set and has no default, or is malformed, is a problem naming it and its
 * {@code file:line:column}, reported with every other problem of the file.
 */
class UnresolvedPlaceholdersAreReportedAtTheirLineTest {

  @TempDir Path temp;

  @Test
  void everyUnsetPlaceholderIsReportedTogetherWithTheOtherProblems() {
    String yaml =
        """
        sluice:
          store:
            url: jdbc:postgresql://${DB_HOST}:${DB_PORT}/sluice
            user: "${env:DB_USER}"
        flows:
          - name: orders
            nmae: typo
            source:
              http-listener:
                port: ${PORT}
                path: "/${sys:base.path}"
        """;

    ConfigurationException e =
        catchThrowableOfType(
            ConfigurationException.class,
            () -> Configs.read(yaml, Configs.environment(Map.of("DB_PORT", "5432"))));

    assertThat(e.problems())
        .extracting(ConfigProblem::source, ConfigProblem::path, ConfigProblem::value)
        .containsExactly(
            tuple("app.yaml:3:28", "sluice.store.url", "${DB_HOST}"),
            tuple("app.yaml:4:11", "sluice.store.user", "${env:DB_USER}"),
            tuple("app.yaml:7:5", "flows[0].nmae", "nmae"),
            tuple("app.yaml:10:15", "flows[0].source.http-listener.port", "${PORT}"),
            tuple("app.yaml:11:15", "flows[0].source.http-listener.path", "${sys:base.path}"));
    assertThat(e.problems().getFirst().rule())
        .isEqualTo(
            "is not set: no properties file given, system property or environment variable is"
                + " named DB_HOST; set it, or give a default after a colon: ${DB_HOST:default}");
    assertThat(e.problems().get(1).rule())
        .startsWith("is not set: the environment has no variable DB_USER");
    assertThat(e.problems().get(4).rule())
        .startsWith("is not set: no system property is named base.path (-Dbase.path=...)");
    assertThat(e.getMessage())
        .contains("app.yaml:10:15: flows[0].source.http-listener.port: value '${PORT}' is not set")
        .doesNotContain("must be an integer");
  }

  @Test
  void aPlainValueOverSeveralLinesIsReportedAtItsStart() {
    String yaml =
        """
        flows:
          - name: f
            processors:
              - logger:
                  message: calling
                    ${UNSET_ON_THE_SECOND_LINE}
        """;

    assertThat(Configs.problems(yaml, Configs.environment(Map.of())))
        .extracting(ConfigProblem::source, ConfigProblem::value)
        .containsExactly(tuple("app.yaml:5:20", "${UNSET_ON_THE_SECOND_LINE}"));
  }

  @Test
  void theUnsetMessageNamesThePropertiesFilesLookedIn() throws IOException {
    Path file = Files.writeString(temp.resolve("prod.properties"), "OTHER=1\n");
    PropertySources sources =
        PropertySources.builder()
            .propertiesFile(file)
            .systemProperties(Map.of())
            .environment(Map.of())
            .build();

    assertThat(Configs.problems("flows: [ { name: '${FLOW}' } ]", sources))
        .singleElement()
        .satisfies(
            p ->
                assertThat(p.rule())
                    .contains("no properties file (" + file + "), system property or environment"));
  }

  @Test
  void malformedPlaceholdersAreProblemsSayingWhatIsWrong() {
    String yaml =
        """
        flows:
          - name: a
            processors:
              - logger: { message: "${}" }
              - logger: { message: "${env:}" }
              - logger: { message: "${a b}" }
              - logger: { message: "${A:${B}}" }
              - logger: { message: "${file:}" }
              - logger: { message: "${secret:}" }
              - logger: { message: "x ${OPEN" }
        """;

    assertThat(Configs.problems(yaml, Configs.environment(Map.of("A", "a", "B", "b"))))
        .extracting(ConfigProblem::value, ConfigProblem::rule)
        .containsExactly(
            tuple(
                "${}",
                "names nothing: write ${NAME}, ${NAME:default}, ${env:NAME}, ${sys:name},"
                    + " ${file:path} or ${secret:...} around one of them; $${ is a literal ${"),
            tuple(
                "${env:}",
                "names nothing: write ${NAME}, ${NAME:default}, ${env:NAME},"
                    + " ${sys:name}, ${file:path} or ${secret:...} around one of them; $${ is a"
                    + " literal ${"),
            tuple(
                "${a b}",
                "has a name 'a b' that is no name: a name holds letters, digits, '_', '.' and '-'"),
            tuple(
                "${A:${B}",
                "holds a placeholder inside a placeholder, which is not supported: a default is"
                    + " plain text"),
            tuple("${file:}", "names no file: write ${file:path}"),
            tuple(
                "${secret:}",
                "names nothing: write ${NAME}, ${NAME:default}, ${env:NAME}, ${sys:name},"
                    + " ${file:path} or ${secret:...} around one of them; $${ is a literal ${"),
            tuple(
                "${OPEN", "is a placeholder without its closing '}'; write $${ for a literal ${"));
  }

  @Test
  void aMissingOrUnparsablePropertiesFileIsRefusedNamingIt() throws IOException {
    Path missing = temp.resolve("missing.properties");
    Path broken = Files.writeString(temp.resolve("broken.properties"), "A=1\nB=\\u12\n");
    Path latin1 =
        Files.write(temp.resolve("latin1.properties"), new byte[] {'A', '=', (byte) 0xE9});

    ConfigurationException e =
        catchThrowableOfType(
            ConfigurationException.class,
            () ->
                PropertySources.builder()
                    .propertiesFile(missing)
                    .propertiesFile(broken)
                    .propertiesFile(latin1)
                    .build());

    assertThat(e.problems())
        .extracting(ConfigProblem::value, ConfigProblem::source)
        .containsExactly(
            tuple(missing.toString(), null),
            tuple(broken.toString(), broken + ":2"),
            tuple(latin1.toString(), latin1 + ":1:3"));
    assertThat(e.problems().getFirst().rule()).startsWith("does not exist (resolved to ");
    assertThat(e.problems().get(1).rule()).startsWith("does not parse as a properties file: ");
    assertThat(e.problems().get(2).rule()).startsWith("is not UTF-8: byte 0xE9 at byte offset 2");
  }
}
