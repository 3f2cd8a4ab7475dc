package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.config.ConfigLoader;
import io.sluice.core.app.Application;
import io.sluice.core.serialization.StoredValues;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sluice-cli ships sluice-serializers: kryo, fory, lz4 and zstd are there for sluice run. */
class SerializersComeWithTheCommandTest {

  @TempDir Path work;

  @Test
  void everyKindAndCodecCanBeNamedAndTheDefaultIsTheFastestSafeOne() throws Exception {
    Path config = work.resolve("app.yaml");
    Files.writeString(
        config,
        """
        serialization:
          serializers:
            compact: { type: kryo, codec: zstd, level: 3 }
            portable: { type: fory, codec: lz4 }
        flows: []
        """);
    CliRun run = CliRun.of("validate", config.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();

    try (Application app = ConfigLoader.load(config).build()) {
      StoredValues stored = app.storedValues();
      assertThat(stored.detected()).isTrue();
      assertThat(stored.defaultSerializer().name()).isEqualTo("fory");
      assertThat(stored.defaultCodec().name()).isEqualTo("none");
      byte[] fory = stored.named("portable").write(List.of("a", "b"));
      byte[] kryo = stored.named("compact").write(List.of("c"));
      assertThat(stored.read(fory)).isEqualTo(List.of("a", "b"));
      assertThat(stored.named("portable").read(kryo)).isEqualTo(List.of("c"));
    }
  }
}
