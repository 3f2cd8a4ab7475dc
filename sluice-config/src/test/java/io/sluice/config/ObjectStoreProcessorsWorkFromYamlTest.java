package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.ConfigProblem;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.store.ObjectStoreOptions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ObjectStoreProcessorsWorkFromYamlTest {

  private static final String FLOWS =
      """
      sluice: { store: { type: memory } }
      flows:
        - name: remember
          processors:
            - store-put: { store: seen, key: "#[attributes.id]", ttl: 1h }
        - name: recall
          processors:
            - store-get: { store: seen, key: "#[attributes.id]", target: earlier }
            - set-payload: { value: "#[vars.earlier]" }
        - name: recall-payload
          processors:
            - store-get: { store: seen, key: "#[attributes.id]" }
        - name: forget
          processors:
            - store-remove: { store: seen, key: "#[attributes.id]" }
      """;

  @Test
  void flowsPutGetAndRemoveThroughANamedObjectStore() throws Exception {
    try (Application app = Configs.build(FLOWS)) {
      app.start();
      send(app, "remember", Message.of("order 7", Map.of("id", "7")));
      assertThat(send(app, "recall", Message.of("?", Map.of("id", "7"))).payload())
          .isEqualTo("order 7");
      assertThat(app.storage().objectStore("seen", ObjectStoreOptions.DEFAULTS).keys())
          .containsExactly("7");
      send(app, "forget", Message.of("", Map.of("id", "7")));
      assertThat(send(app, "recall", Message.of("?", Map.of("id", "7"))).payload()).isNull();
      assertThatThrownBy(() -> send(app, "recall-payload", Message.of("?", Map.of("id", "7"))))
          .hasRootCauseMessage(
              "object store 'seen' has no value under '7'; give store-get a target to take a missing"
                  + " entry as a null variable");
    }
  }

  @Test
  void aStoreProcessorWithoutStoreOrKeyIsReportedAtItsLine() {
    List<ConfigProblem> problems =
        Configs.problems(
            """
            flows:
              - name: broken
                processors:
                  - store-put: { key: k, ttl: 0s }
                  - store-get: { store: s }
            """);
    assertThat(problems)
        .extracting(ConfigProblem::path)
        .contains("flows[0].processors[0].store-put.store", "flows[0].processors[1].store-get.key");
  }

  private static Message send(Application app, String flow, Message message) throws Exception {
    return app.send(flow, message).get(10, TimeUnit.SECONDS);
  }
}
