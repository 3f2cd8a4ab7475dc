package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

class JsonLogEncoderTest {

  @Test
  void aLineHoldsTheMdcAndTheWholeStackTraceEscaped() throws Exception {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    JsonLogEncoder encoder = new JsonLogEncoder();
    encoder.setContext(context);
    encoder.start();
    MDC.put("flow", "orders");
    MDC.put("messageId", "abc-1");
    LoggingEvent event;
    try {
      event =
          new LoggingEvent(
              "test",
              context.getLogger("io.sluice.test"),
              Level.ERROR,
              "order {} \"refused\"\nsecond line",
              new IllegalStateException("boom"),
              new Object[] {42});
      event.getMDCPropertyMap();
    } finally {
      MDC.clear();
    }
    byte[] bytes = encoder.encode(event);
    String text = new String(bytes, StandardCharsets.UTF_8);
    assertThat(text).endsWith("\n");
    assertThat(text.strip()).doesNotContain("\n");
    JsonNode line = new ObjectMapper().readTree(text);
    assertThat(line.get("level").asText()).isEqualTo("ERROR");
    assertThat(line.get("logger").asText()).isEqualTo("io.sluice.test");
    assertThat(line.get("message").asText()).isEqualTo("order 42 \"refused\"\nsecond line");
    assertThat(line.get("flow").asText()).isEqualTo("orders");
    assertThat(line.get("messageId").asText()).isEqualTo("abc-1");
    assertThat(line.get("error").asText())
        .startsWith("java.lang.IllegalStateException: boom")
        .contains("\tat io.sluice.cli.JsonLogEncoderTest");
  }
}
