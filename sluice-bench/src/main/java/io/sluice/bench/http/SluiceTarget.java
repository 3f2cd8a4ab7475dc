package io.sluice.bench.http;

import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.http.HttpListenerSource;
import io.sluice.http.HttpServerConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A Sluice application serving the {@link BenchEndpoint}s on 127.0.0.1, one flow each, both with
 * the strategy given and every other setting at its default. The token check and the reply are
 * CPU_LITE processors; the wait of {@code /wait} is a BLOCKING_IO processor that sleeps. Its meters
 * go to a Prometheus registry, as those of {@code sluice run} do; untimed, the registry denies the
 * two timers a request meets ({@code sluice.http.server.requests} and {@code
 * sluice.flow.duration}): each record is a no-op, what the request does to find its timer stays.
 */
final class SluiceTarget implements AutoCloseable {

  private final Application app;
  private final int port;

  SluiceTarget(ProcessingStrategy strategy, boolean timed) throws IOException {
    // Listeners share a server only on a fixed port (port 0 is never shared): pick a free one.
    this.port = freePort();
    HttpServerConfig server = HttpServerConfig.builder(port).host("127.0.0.1").build();
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    if (!timed) {
      registry
          .config()
          .meterFilter(MeterFilter.denyNameStartsWith("sluice.http.server.requests"))
          .meterFilter(MeterFilter.denyNameStartsWith("sluice.flow.duration"));
    }
    Application.Builder builder = Application.builder().meterRegistry(registry);
    for (BenchEndpoint endpoint : BenchEndpoint.values()) {
      builder.flow(flow(endpoint, server, strategy));
    }
    this.app = builder.build();
    app.start();
  }

  private static Flow flow(
      BenchEndpoint endpoint, HttpServerConfig server, ProcessingStrategy strategy) {
    Flow.Builder flow =
        Flow.builder(endpoint.name().toLowerCase(Locale.ROOT))
            .strategy(strategy)
            .source(new HttpListenerSource(server, endpoint.path(), Set.of("GET")))
            .processor(Processor.of(ProcessingType.CPU_LITE, SluiceTarget::checkToken));
    if (endpoint.waitTime().isPositive()) {
      long millis = endpoint.waitTime().toMillis();
      flow.processor(
          Processor.of(
              ProcessingType.BLOCKING_IO,
              m -> {
                if (!refused(m)) {
                  Thread.sleep(millis);
                }
                return m;
              }));
    }
    return flow.processor(Processor.of(ProcessingType.CPU_LITE, SluiceTarget::reply)).build();
  }

  private static Message checkToken(Message message) {
    String token =
        message.attribute("headers") instanceof Map<?, ?> headers
            ? (String) headers.get(BenchEndpoint.TOKEN_HEADER)
            : null;
    return BenchEndpoint.authorized(token)
        ? message
        : message.withVariable(HttpListenerSource.STATUS, 401);
  }

  private static boolean refused(Message message) {
    return message.variable(HttpListenerSource.STATUS) != null;
  }

  private static Message reply(Message message) {
    return message.withPayload(refused(message) ? BenchEndpoint.REFUSAL : BenchEndpoint.REPLY);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  int port() {
    return port;
  }

  @Override
  public void close() {
    app.stop();
  }
}
