package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.store.ObjectStoreOptions;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store-put, a persistent vm-publish and a persistent staged flow name the serializer (and so the
 * codec) they write with, and a store-put bounds its store, from YAML; the stored records' headers
 * say which wrote them.
 */
class EachStoreAndQueueChoosesItsSerializerFromYamlTest {

  @TempDir Path data;

  private String yaml() {
    return """
        sluice: { store: { dataDir: "%s" } }
        serialization:
          serializers:
            compact: { type: jdk, codec: gzip }
        flows:
          - name: remember
            processors:
              - store-put: { store: recent, key: "#[attributes.id]", serializer: compact, maxEntries: 2 }
          - name: remember-plainly
            processors:
              - store-put: { store: plain, key: "#[attributes.id]" }
          - name: forward
            processors:
              - vm-publish: { queue: outbox, persistent: true, serializer: compact }
        """
        .formatted(data);
  }

  @Test
  void aPutWritesWithItsSerializerAndCodecAndKeepsItsBound() throws Exception {
    try (Application app = Configs.build(yaml())) {
      app.start();
      for (String id : new String[] {"1", "2", "3"}) {
        app.send("remember", Message.of("order " + id, Map.of("id", id))).get(10, TimeUnit.SECONDS);
      }
      app.send("remember-plainly", Message.of("x", Map.of("id", "9"))).get(10, TimeUnit.SECONDS);
      app.send("forward", Message.of("parcel")).get(10, TimeUnit.SECONDS);

      assertThat(app.storage().objectStore("recent", ObjectStoreOptions.DEFAULTS).keys())
          .containsExactlyInAnyOrder("2", "3");
    }
    // byte 3 of a record's header is the serializer's id (jdk: 1), byte 5 the codec's (gzip: 2)
    byte[] compact = firstBlob("SELECT value FROM sluice_object_store WHERE store = 'recent'");
    assertThat(compact[3]).isEqualTo((byte) 1);
    assertThat(compact[5]).isEqualTo((byte) 2);
    byte[] plain = firstBlob("SELECT value FROM sluice_object_store WHERE store = 'plain'");
    assertThat(plain[5]).isEqualTo((byte) 0);
    byte[] queued = firstBlob("SELECT payload FROM sluice_queue_payload");
    assertThat(queued[5]).isEqualTo((byte) 2);
  }

  private byte[] firstBlob(String sql) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + data.resolve("sluice.db"));
        PreparedStatement s = c.prepareStatement(sql);
        ResultSet r = s.executeQuery()) {
      assertThat(r.next()).as(sql).isTrue();
      return r.getBytes(1);
    }
  }

  @Test
  void aPersistentStagedFlowKeepsItsMessagesWithItsSerializerAndCodec() throws Exception {
    QueuedRecordHeader.database = data.resolve("sluice.db");
    String yaml =
        """
        sluice: { store: { dataDir: "%s" } }
        serialization:
          serializers:
            compact: { type: jdk, codec: gzip }
        flows:
          - name: ingest
            strategy: { staged: { persistent: true, serializer: compact } }
            processors:
              - component: { class: io.sluice.config.QueuedRecordHeader }
          - name: ingest-plainly
            strategy: { staged: { persistent: true } }
            processors:
              - component: { class: io.sluice.config.QueuedRecordHeader }
        """
            .formatted(data);
    try (Application app = Configs.build(yaml)) {
      app.start();
      // jdk is serializer 1; gzip is codec 2, none 0: read while the flow holds the message
      assertThat(app.send("ingest", Message.of("parcel")).get(10, TimeUnit.SECONDS).payload())
          .isEqualTo("serializer=1 codec=2");
      // the default serializer, no codec
      assertThat(
              (String)
                  app.send("ingest-plainly", Message.of("parcel"))
                      .get(10, TimeUnit.SECONDS)
                      .payload())
          .endsWith(" codec=0");
    }
  }

  @Test
  void aSerializerOnAnInMemoryOrUndeclaredStagedFlowIsRefused() {
    String yaml =
        """
        serialization:
          serializers:
            compact: { type: jdk, codec: gzip }
        flows:
          - name: ingest
            strategy: { staged: { serializer: compact } }
            processors: [ { logger: {} } ]
          - name: kept
            strategy: { staged: { persistent: true, serializer: tiny } }
            processors: [ { logger: {} } ]
        """;
    assertThat(Configs.rule(yaml, "flows[0].strategy.staged.serializer"))
        .isEqualTo(
            "applies only to a persistent staged flow (persistent: true); an in-memory one stores"
                + " nothing");
    assertThat(Configs.rule(yaml, "flows[1].strategy.staged.serializer"))
        .isEqualTo(
            "is not a named serializer of this configuration; its named serializers: compact,"
                + " default");
  }

  @Test
  void anUndeclaredSerializerIsRefusedListingTheDeclaredOnes() {
    assertThat(
            Configs.rule(
                """
                serialization:
                  serializers:
                    compact: { type: jdk, codec: gzip }
                flows:
                  - name: remember
                    processors:
                      - store-put: { store: recent, key: k, serializer: tiny }
                """,
                "flows[0].processors[0].store-put.serializer"))
        .isEqualTo(
            "is not a named serializer of this configuration; its named serializers: compact,"
                + " default");
  }

  @Test
  void aSerializerOnAnInMemoryQueueIsRefused() {
    assertThat(
            Configs.rule(
                """
                flows:
                  - name: forward
                    processors:
                      - vm-publish: { queue: outbox, serializer: default }
                """,
                "flows[0].processors[0].vm-publish.serializer"))
        .contains("applies only to a persistent queue");
  }
}
