package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class LoadedConfigurationRunsEndToEndTest {

  private final Logger shoutLog = (Logger) LoggerFactory.getLogger("test.shout");
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

  @BeforeEach
  void captureTheLog() {
    logged.start();
    shoutLog.addAppender(logged);
  }

  @AfterEach
  void releaseTheLog() {
    shoutLog.detachAppender(logged);
  }

  @Test
  void aCallerFlowGetsTheListenerFlowsAnswerOverAVmQueue() throws Exception {
    Application.Builder builder =
        Configs.parse(
            """
        sluice:
          shutdownTimeout: 5s
        flows:
          - name: shout
            strategy: { synchronous: { receiver: { maxThreadsActive: 2 } } }
            source: { vm-listener: { queue: shout } }
            processors:
              - set-payload: { value: "#[payload.toUpperCase() + '!']" }
              - logger: { message: "shouting #[payload]", category: test.shout }
          - name: caller
            processors:
              - set-variable: { name: asked, value: "#[payload]" }
              - vm-request: { queue: shout, timeout: 10s }
        """);

    try (Application application = builder.build()) {
      application.start();
      Message answer = application.send("caller", Message.of("hello")).get(10, TimeUnit.SECONDS);

      assertThat(answer.payload()).isEqualTo("HELLO!");
      assertThat(answer.variable("asked")).isEqualTo("hello");
      assertThat(logged.list)
          .extracting(ILoggingEvent::getFormattedMessage)
          .containsExactly("shouting HELLO!");
    }
  }
}
