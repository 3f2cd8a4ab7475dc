package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.app.Application;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.vm.VmListenerSource;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class StoreAndPersistenceAreMappedFromYamlTest {

  @Test
  void theDefaultStoreIsSqliteUnderDataNextToTheFile() {
    StorageConfig store = Configs.build("flows: [ { name: bare } ]").storageConfig();
    assertThat(store.type()).isEqualTo(StorageConfig.SQLITE);
    assertThat(store.sqliteFile()).isEqualTo(Configs.BASE.resolve("data/sluice.db"));
    assertThat(store.sync()).isEqualTo(StorageConfig.Sync.FULL);
  }

  @Test
  void aPostgresUrlChoosesPostgresAndItsPasswordIsMaskedWhenShown() {
    StorageConfig store =
        Configs.build(
                """
                sluice:
                  store:
                    url: jdbc:postgresql://db:5432/sluice?password=hunter2
                    user: sluice
                    password: s3cret
                    poolSize: 4
                    connectTimeout: 3s
                flows: [ { name: bare } ]
                """)
            .storageConfig();
    assertThat(store.type()).isEqualTo(StorageConfig.POSTGRESQL);
    assertThat(store.poolSize()).isEqualTo(4);
    assertThat(store.connectTimeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(store.toString())
        .contains("jdbc:postgresql://db:5432/sluice?password=***", "user sluice")
        .doesNotContain("hunter2", "s3cret");
  }

  @Test
  void postgresTlsSettingsAreReadAndAMissingCertificateIsReportedWithItsKey() {
    StorageConfig store =
        Configs.build(
                """
                sluice:
                  store:
                    url: jdbc:postgresql://db:5432/sluice
                    sslMode: verify-full
                flows: [ { name: bare } ]
                """)
            .storageConfig();
    assertThat(store.sslMode()).isEqualTo("verify-full");
    List<ConfigProblem> problems =
        Configs.problems(
            """
            sluice:
              store:
                url: jdbc:postgresql://db:5432/sluice
                sslMode: verify-ca
                sslRootCert: no-such-ca.pem
                sslCert: client.pem
            flows: [ { name: bare } ]
            """);
    assertThat(problems)
        .extracting(ConfigProblem::path)
        .contains("sluice.store.sslRootCert", "sluice.store.sslKey");
    assertThat(
            Configs.problems(
                "sluice: { store: { url: 'jdbc:postgresql://db/x', sslMode: always } }\n"
                    + "flows: [ { name: bare } ]"))
        .extracting(ConfigProblem::path)
        .contains("sluice.store.sslMode");
  }

  @Test
  void memoryAndSyncAndDataDirAreRead() {
    Application memory =
        Configs.build("sluice: { store: { type: memory } }\nflows: [ { name: bare } ]");
    assertThat(memory.storageConfig().type()).isEqualTo(StorageConfig.MEMORY);
    StorageConfig sqlite =
        Configs.build(
                "sluice: { store: { dataDir: /var/lib/sluice, sync: NORMAL } }\n"
                    + "flows: [ { name: bare } ]")
            .storageConfig();
    assertThat(sqlite.sqliteFile()).hasToString("/var/lib/sluice/sluice.db");
    assertThat(sqlite.sync()).isEqualTo(StorageConfig.Sync.NORMAL);
  }

  @Test
  void persistentQueuesAndStagedFlowsAreRead() {
    Application app =
        Configs.build(
            """
            flows:
              - name: in
                processors:
                  - vm-publish: { queue: work, persistent: true }
              - name: worker
                strategy: { staged: { persistent: true } }
                source:
                  vm-listener:
                    queue: work
                    persistent: true
                    lockTimeout: 2m
                    maxDeliveries: 7
                    redeliveryDelay: 5s
            """);
    assertThat(app.flows().get(0).processors().getFirst().name())
        .isEqualTo("vm-publish(persistent work)");
    assertThat(((ProcessingStrategy.Staged) app.flows().get(1).strategy()).persistent()).isTrue();
    VmListenerSource source = (VmListenerSource) app.flows().get(1).source();
    assertThat(source.persistent()).isTrue();
    assertThat(source.persistence().queue().lockTimeout()).isEqualTo(Duration.ofMinutes(2));
    assertThat(source.persistence().queue().maxDeliveries()).isEqualTo(7);
    assertThat(source.persistence().redeliveryDelay()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void brokenStoreAndPersistenceSettingsAreReportedAtTheirLines() {
    List<ConfigProblem> problems =
        Configs.problems(
            """
            sluice:
              store:
                type: oracle
                url: jdbc:mysql://db/x
                poolSize: 0
            flows:
              - name: in
                processors:
                  - vm-request: { queue: work, persistent: true }
            """);
    assertThat(problems)
        .extracting(p -> p.path() + " @ " + p.source())
        .contains(
            "sluice.store.type @ app.yaml:3:5",
            "sluice.store.url @ app.yaml:4:5",
            "sluice.store.poolSize @ app.yaml:5:5",
            "flows[0].processors[0].vm-request.persistent @ app.yaml:9:36");
    assertThat(problems)
        .filteredOn(p -> p.path().endsWith("persistent"))
        .singleElement()
        .satisfies(p -> assertThat(p.rule()).contains("persistent queue is one-way"));
  }
}
