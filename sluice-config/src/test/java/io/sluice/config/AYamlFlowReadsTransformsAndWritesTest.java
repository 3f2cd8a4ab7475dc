package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import io.sluice.core.app.Application;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AYamlFlowReadsTransformsAndWritesTest {

  private static final String FLOW =
      """
      flows:
        - name: orders
          processors:
            - read:
            - transform:
                template:
                  id: "#[payload.order.id]"
                  firstSku: "#[payload.order.items[0].sku]"
                  count: "#[payload.order.items.size()]"
                  label: "order #[payload.order.id]"
            - write: { format: json }
          errorHandler:
            - onErrorContinue:
                types: [PARSE]
                processors:
                  - set-payload: { value: "bad #[error.errorType] at #[error.cause.line()]" }
      """;

  private static Message send(Message message) throws Exception {
    try (Application app = Configs.build(FLOW)) {
      app.start();
      return app.send("orders", message).get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void anOrderIsReadByItsContentTypeTransformedAndWrittenAsJson() throws Exception {
    Message answer =
        send(
            Message.of(
                "{\"order\": {\"id\": 7, \"items\": [{\"sku\": \"A-1\"}, {\"sku\": \"B-2\"}]}}",
                Map.of("headers", Map.of("content-type", "application/json"))));

    assertThat(answer.payload())
        .isEqualTo("{\"id\":7,\"firstSku\":\"A-1\",\"count\":2,\"label\":\"order 7\"}");
    assertThat(answer.variable("httpHeaders"))
        .isEqualTo(Map.of("content-type", "application/json"));
  }

  @Test
  void aMalformedOrderIsTakenByTheParseHandler() throws Exception {
    Message answer = send(Message.of("<order>\n<id>7</order>", Map.of("fileName", "order-7.xml")));

    assertThat(answer.payload()).isEqualTo("bad FORMAT:PARSE at 2");
  }
}
