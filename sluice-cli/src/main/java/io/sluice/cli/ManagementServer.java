package io.sluice.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
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

  private ManagementServer(
      HttpServer server, PrometheusMeterRegistry registry, ManagementAccess access) {
    this.server = server;
    this.registry = registry;
    this.access = access;
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
    // A tag may hold a secret value (a flow named by a ${secret:...}, a URL): never served.
    reply(
        exchange, 200, "text/plain; version=0.0.4; charset=utf-8", Secrets.mask(registry.scrape()));
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

  @Override
  public void close() {
    server.stop(0);
  }
}
