package io.sluice.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class ClientMetricsStayBoundedTest {

  @Test
  void hostsPastTheBoundCountAsOtherWhileAKnownHostKeepsItsOwnTimersForNewOutcomes() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ClientMetrics metrics = new ClientMetrics(registry, "f", "GET");
    for (int i = 0; i < ClientMetrics.MAX_HOSTS + 20; i++) {
      metrics.called("host" + i, 80, "2xx", 1_000);
    }
    metrics.called("host0", 80, "timeout", 1_000);

    assertThat(registry.find("sluice.http.client.requests").timers())
        .as("100 hosts, one 'other', and host0's timeout")
        .hasSize(ClientMetrics.MAX_HOSTS + 2);
    assertThat(registry.get("sluice.http.client.requests").tag("host", "other").timer().count())
        .isEqualTo(20);
    assertThat(
            registry
                .get("sluice.http.client.requests")
                .tag("host", "host0:80")
                .tag("outcome", "timeout")
                .timer()
                .count())
        .isEqualTo(1);
  }
}
