package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.sluice.core.ConfigurationException;
import io.sluice.core.file.FileSourceConfig;
import io.sluice.core.flow.Flow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RelativeDirectoriesResolveAgainstTheFileTest {

  @TempDir Path temp;

  @Test
  void relativeDirectoriesAreTakenFromTheConfigurationFilesDirectory() throws IOException {
    Path configDir = Files.createDirectories(temp.resolve("conf"));
    Path file =
        Files.writeString(
            configDir.resolve("app.yaml"),
            """
        flows:
          - name: files
            source: { file: { directory: in, afterRead: MOVE, moveTo: ../archive/done } }
            sinks:
              - file-write: { directory: /var/out }
        """);

    Flow flow = ConfigLoader.load(file).build().flows().get(0);

    FileSourceConfig source = Fields.ofType(flow.source(), FileSourceConfig.class);
    assertThat(source.directory()).isEqualTo(configDir.resolve("in"));
    assertThat(source.moveTo()).isEqualTo(temp.resolve("archive/done"));
    assertThat(Fields.ofType(flow.sinks().get(0), Path.class)).isEqualTo(Path.of("/var/out"));
  }

  @Test
  void problemsAreLocatedInTheFileByItsName() throws IOException {
    Path file = Files.writeString(temp.resolve("orders.yaml"), "flows: [ { name: '-bad' } ]\n");

    ConfigurationException e =
        catchThrowableOfType(ConfigurationException.class, () -> ConfigLoader.load(file));

    assertThat(e.problems())
        .singleElement()
        .satisfies(p -> assertThat(p.source()).isEqualTo("orders.yaml:1:12"));
  }

  @Test
  void aMissingFileIsReportedByItsPath() {
    Path missing = temp.resolve("nowhere.yaml");

    ConfigurationException e =
        catchThrowableOfType(ConfigurationException.class, () -> ConfigLoader.load(missing));

    assertThat(e)
        .hasMessageContaining(missing.toString())
        .hasMessageContaining("could not be read");
  }
}
