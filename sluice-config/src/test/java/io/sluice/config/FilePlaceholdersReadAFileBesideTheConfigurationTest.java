package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ${file:path}}: a file's UTF-8 text, relative to the configuration's directory. */
class FilePlaceholdersReadAFileBesideTheConfigurationTest {

  @TempDir Path temp;

  private final PropertySources none = Configs.environment(Map.of());

  @Test
  void aRelativeFileIsReadBesideTheConfigurationWithoutItsLastNewline() throws IOException {
    Files.createDirectories(temp.resolve("secrets"));
    Files.writeString(temp.resolve("secrets/db-password"), "pässword\n");
    Files.writeString(temp.resolve("user"), "app\r\n");
    Files.writeString(temp.resolve("two-lines"), "a\nb\n\n");

    var store =
        Configs.read(
                """
                sluice:
                  store:
                    url: jdbc:postgresql://db/${file:two-lines}
                    user: ${file:user}
                    password: ${file:secrets/db-password}
                flows: [ { name: f } ]
                """,
                temp,
                none)
            .application()
            .build()
            .storageConfig();

    assertThat(store.password()).isEqualTo("pässword");
    assertThat(store.user()).isEqualTo("app");
    assertThat(store.url()).isEqualTo("jdbc:postgresql://db/a\nb\n");
  }

  @Test
  void aMissingOrTooLargeOrNonUtf8FileIsAProblemNamingIt() throws IOException {
    Files.write(temp.resolve("big"), new byte[PlaceholderResolver.MAX_FILE_BYTES + 1]);
    Files.write(temp.resolve("latin1"), new byte[] {'a', (byte) 0xE9});

    var problems =
        assertProblems(
            """
            flows:
              - name: f
                processors:
                  - logger: { message: "${file:missing.txt}" }
                  - logger: { message: "${file:big}" }
                  - logger: { message: "${file:latin1}" }
            """);

    assertThat(problems)
        .extracting(ConfigProblem::rule)
        .containsExactly(
            "reads "
                + temp.resolve("missing.txt")
                + ", which does not exist (a relative path is relative to the configuration"
                + " file's directory)",
            "reads "
                + temp.resolve("big")
                + ", which is larger than 1048576 bytes (1 MiB), the most a ${file:...} may read",
            "reads "
                + temp.resolve("latin1")
                + ":1:2, which is not UTF-8: byte 0xE9 at byte offset 1 does not belong there;"
                + " save the file as UTF-8");
  }

  @Test
  void aDeviceThatNeverEndsIsReadNoFurtherThanTheLimit() {
    // /dev/zero says its size is 0 and gives bytes without end: the read stops past 1 MiB.
    var problems =
        assertProblems(
            """
            flows:
              - name: f
                processors:
                  - logger: { message: "${file:/dev/zero}" }
            """);

    assertThat(problems)
        .extracting(ConfigProblem::rule)
        .containsExactly("reads /dev/zero, which gives more than 1048576 bytes (1 MiB)");
  }

  private List<ConfigProblem> assertProblems(String yaml) {
    return catchThrowableOfType(ConfigurationException.class, () -> Configs.read(yaml, temp, none))
        .problems();
  }
}
