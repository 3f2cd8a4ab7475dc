package io.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.spi.Processor;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A client that leaves mid-request is counted and forgotten; the server serves everyone else. */
class ClientsThatMisbehaveDoNotHurtOthersTest {

  @Test
  void aClientThatDisconnectsBeforeItsResponseIsCountedAndOthersAreServed() throws Exception {
    Gate gate = new Gate("x".repeat(100_000));
    Processor held =
        m ->
            "wait".equals(((Map<?, ?>) m.attribute("queryParams")).get("mode"))
                ? gate.process(m)
                : m.withPayload("x".repeat(100_000));
    try (Listening http = Listening.start("/", held)) {
      RawClient leaving = http.raw();
      leaving.send("GET /?mode=wait HTTP/1.1\r\nHost: x\r\n\r\n");
      await().until(() -> gate.holding() == 1);
      leaving.close();
      await().until(() -> http.refused("client-gone") == 1);
      gate.open();

      assertThat(http.get("/").body()).hasSize(100_000);
      assertThat(http.connections()).isLessThanOrEqualTo(1);
    }
  }

  @Test
  void aClientThatSendsHalfARequestAndLeavesChangesNothing() throws Exception {
    Processor ok = m -> m.withPayload("ok");
    try (Listening http = Listening.start("/", ok)) {
      try (RawClient half = http.raw()) {
        half.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc");
        await().until(() -> http.connections() == 1);
      }
      await().until(() -> http.connections() == 0);
      assertThat(http.get("/").body()).isEqualTo("ok");
    }
  }
}
