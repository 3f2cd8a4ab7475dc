package io.sluice.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.groups.Tuple.tuple;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/**
 * A store type is a name: the core builds memory and checks its rules; a type no factory is
 * installed for (the core alone has neither sqlite nor postgresql) builds, and opening it says
 * which module it needs and which types are installed.
 */
class AStoreTypeIsANameItsFactoryChecksTest {

  private static final ClassLoader CORE = StorageConfig.class.getClassLoader();

  @Test
  void theTypeIsImpliedByTheUrl() {
    assertThat(StorageConfig.defaults().type()).isEqualTo(StorageConfig.SQLITE);
    assertThat(StorageConfig.builder().url("jdbc:postgresql://db/app").build().type())
        .isEqualTo(StorageConfig.POSTGRESQL);
    assertThat(StorageConfig.memory().type()).isEqualTo(StorageConfig.MEMORY);
  }

  @Test
  void aBuilderReusedWithoutItsUrlImpliesTheTypeAgain() {
    StorageConfig.Builder builder =
        StorageConfig.builder().loader(CORE).url("jdbc:postgresql://db:5432/app");
    assertThat(builder.build().type()).isEqualTo(StorageConfig.POSTGRESQL);
    assertThat(builder.url(null).build().type()).isEqualTo(StorageConfig.SQLITE);
  }

  @Test
  void aPluginTypesSettingsAreDescribedByNameOnly() {
    StorageConfig config =
        StorageConfig.builder().loader(CORE).type("vault").setting("token", "s3cr3t").build();
    assertThat(config.toString()).contains("vault").contains("token").doesNotContain("s3cr3t");
  }

  @Test
  void memoryRefusesAUrlTlsAndTheSettingsOfOtherTypes() {
    ConfigurationException e =
        catchThrowableOfType(
            ConfigurationException.class,
            () ->
                StorageConfig.builder()
                    .type(StorageConfig.MEMORY)
                    .url("jdbc:postgresql://db/app")
                    .sslMode("require")
                    .setting("capacity", 3)
                    .build());

    assertThat(e.problems())
        .extracting(ConfigProblem::path, ConfigProblem::rule)
        .containsExactly(
            tuple("sluice.store.url", "is only for a postgresql store; this store is memory"),
            tuple(
                "sluice.store.sslMode",
                "and the other ssl settings are only for a postgresql store"),
            tuple("sluice.store.capacity", "is not a setting of a memory store"));
  }

  @Test
  void aTypeWithoutAFactoryNamesWhatItNeedsAndWhatIsInstalledWhenOpened() {
    StorageConfig sqlite = StorageConfig.builder().loader(CORE).build();
    StorageConfig other = StorageConfig.builder().type("mongo").loader(CORE).build();

    assertThatThrownBy(() -> open(sqlite))
        .isInstanceOf(StoreException.class)
        .hasMessage(
            "the sqlite store needs sluice-jdbc on the class path, and it is not there (installed"
                + " store types: memory); add it, or set sluice.store.type: memory to keep nothing"
                + " across a restart");
    assertThatThrownBy(() -> open(other))
        .isInstanceOf(StoreException.class)
        .hasMessageStartingWith(
            "the mongo store needs the module that provides it on the class path");
  }

  @Test
  void aBlankTypeIsRefused() {
    assertThatThrownBy(() -> StorageConfig.builder().type(" ").build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("sluice.store.type")
        .hasMessageContaining("must name a store type");
  }

  private static Storage open(StorageConfig config) {
    return Storages.open(
        config,
        StoredValues.builder(SerializationConfig.defaults()).build(),
        new SimpleMeterRegistry(),
        Clock.systemUTC(),
        CORE);
  }
}
