package io.sluice.http.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.SluiceException;
import io.sluice.http.HttpServerConfig;
import java.util.HashMap;
import java.util.Map;

/**
 * The servers of the process, one per host and port: listeners of several flows on the same port
 * share one. Port 0 (any free port) is never shared.
 */
public final class HttpServers {

  private static final Map<String, HttpServer> SERVERS = new HashMap<>();

  private HttpServers() {}

  /** Adds {@code route} to the server of {@code config}, starting that server if needed. */
  public static synchronized HttpServer join(
      HttpServerConfig config, Route route, MeterRegistry registry) {
    String key = config.host() + ":" + config.port();
    HttpServer server = config.port() == 0 ? null : SERVERS.get(key);
    if (server != null && !server.config().equals(config)) {
      throw new SluiceException(
          "Another listener on "
              + key
              + " set other server settings ("
              + server.config()
              + "); listeners on one port share one server: give them the same settings.");
    }
    if (server == null) {
      server = new HttpServer(config, registry);
      if (config.port() != 0) {
        SERVERS.put(key, server);
      }
    }
    server.add(route);
    return server;
  }

  /** Removes {@code route}; the server stops (gracefully) with its last route. */
  public static synchronized void leave(HttpServer server, Route route) {
    if (server.remove(route)) {
      SERVERS.values().remove(server);
      server.stop();
    }
  }
}
