package io.sluice.formats;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WriteSetsTheResponseContentTypeTest {

  @Test
  void theFormatsMimeTypeJoinsTheHttpHeadersVariable() {
    Message message =
        Message.of(Map.of("a", 1))
            .withVariable("httpHeaders", Map.of("x-trace", "7", "Content-Type", "text/plain"));

    Message written = WriteProcessor.of(Format.XML).process(message);

    assertThat(written.variable("httpHeaders"))
        .isEqualTo(Map.of("x-trace", "7", "content-type", "application/xml"));
  }

  @Test
  void aWriteIntoAVariableLeavesPayloadAndHeadersAlone() {
    WriteProcessor write =
        new WriteProcessor(
            WriteConfig.builder(Format.JSON)
                .value(Template.parse("value", "#[vars.order]"))
                .target("json")
                .build());

    Message written = write.process(Message.of("keep").withVariable("order", Map.of("id", 7)));

    assertThat(written.payload()).isEqualTo("keep");
    assertThat(written.variable("json")).isEqualTo("{\"id\":7}");
    assertThat(written.variable("httpHeaders")).isNull();
  }
}
