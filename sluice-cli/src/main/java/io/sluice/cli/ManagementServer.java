package io.sluice.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.config.Secrets;
import io.sluice.core.SluiceException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * The management endpoint of {@code sluice run}: {@code GET /metrics} in the Prometheus text format
 * and {@code GET /health}. A small JDK HTTP server on its own port, so it answers even when the
 * flows are saturated. With a token ({@link ManagementAccess}) every path but {@code /health}
 * (which says only UP, for load balancers that probe without credentials) answers 401 to a request
 * without {@code Authorization: Bearer TOKEN}. A secret value ({@link Secrets}) in a tag is served
 * masked.
 */
final class ManagementServer implements AutoCloseable {

  private final HttpServer server;
  private final PrometheusMeterRegistry registry;
  private final ManagementAccess access;
  private final JvmGcMetrics gc;

  private ManagementServer(
      HttpServer server, PrometheusMeterRegistry registry, ManagementAccess access) {
    this.server = server;
    this.registry = registry;
    this.access = access;
    this.gc = bindProcessMeters(registry);
  }

  /**
   * The meters of the JVM and the process that operators expect beside the application's: memory
   * pools and buffers, garbage collections, threads, loaded classes, CPU (the process's and the
   * machine's), open file descriptors, uptime, and {@code sluice_build_info} whose tags say the
   * version of Sluice and of the JVM. The collector's meters listen to GC notifications until
   * {@link #close}.
   */
  private static JvmGcMetrics bindProcessMeters(MeterRegistry registry) {
    new JvmMemoryMetrics().bindTo(registry);
    JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new JvmInfoMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    Gauge.builder("sluice.build.info", () -> 1)
        .description("Always 1; its tags say which Sluice and which JVM run")
        .tag("version", version())
        .tag("java", Runtime.version().toString())
        .register(registry);
    return gc;
  }

  /** A registry for the application's meters, to be served once {@link #start} is called. */
  static PrometheusMeterRegistry registry() {
    return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  }

  /**
   * Serves {@code registry} on {@code host:port} to the requests {@code access} admits; fails
   * clearly when the port is taken.
   */
  static ManagementServer start(
      String host, int port, PrometheusMeterRegistry registry, ManagementAccess access) {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(host, port), 16);
    } catch (BindException e) {
      throw new SluiceException(
          "Management port "
              + port
              + " on "
              + host
              + " is already in use. "
              + "Make sure no other process is using it, or choose another with --management-port.");
    } catch (IOException e) {
      throw new SluiceException(
          "Could not open the management port " + host + ":" + port + ": " + e);
    }
    ManagementServer management = new ManagementServer(server, registry, access);
    server.createContext("/metrics", management::metrics);
    server.createContext("/", exchange -> management.reply(exchange, 404, "text/plain", ""));
    server.createContext(
        "/health", exchange -> management.reply(exchange, 200, "text/plain", "UP\n"));
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.start();
    return management;
  }

  /** The port it listens on (useful when 0 was asked for). */
  int port() {
    return server.getAddress().getPort();
  }

  private void metrics(HttpExchange exchange) throws IOException {
    if (!access.admits(exchange.getRequestHeaders().getFirst("Authorization"))) {
      exchange.getResponseHeaders().add("WWW-Authenticate", "Bearer realm=\"sluice\"");
      reply(exchange, 401, "text/plain", "A bearer token is required\n");
      return;
    }
    if (!"GET".equals(exchange.getRequestMethod())) {
      exchange.getResponseHeaders().add("Allow", "GET");
      reply(exchange, 405, "text/plain", "Only GET is supported\n");
      return;
    }
    // OpenMetrics for a scraper that asks for it (Prometheus does, for exemplars and _created);
    // the classic text format otherwise, which every scraper reads.
    String accept = exchange.getRequestHeaders().getFirst("Accept");
    String type =
        accept != null && accept.contains("application/openmetrics-text")
            ? OPENMETRICS
            : "text/plain; version=0.0.4; charset=utf-8";
    // A tag may hold a secret value (a flow named by a ${secret:...}, a URL): never served.
    reply(exchange, 200, type, Secrets.mask(registry.scrape(type)));
  }

  private void reply(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static String version() {
    try {
      return VersionProvider.version();
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static final String OPENMETRICS =
      "application/openmetrics-text; version=1.0.0; charset=utf-8";

  @Override
  public void close() {
    server.stop(0);
    gc.close();
  }
}
