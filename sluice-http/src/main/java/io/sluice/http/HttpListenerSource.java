package io.sluice.http;

import io.sluice.core.health.HealthCheck;
import io.sluice.core.health.HealthContributor;
import io.sluice.core.spi.Source;
import io.sluice.core.spi.SourceContext;
import io.sluice.http.internal.HttpServer;
import io.sluice.http.internal.HttpServers;
import io.sluice.http.internal.PathPattern;
import io.sluice.http.internal.Route;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * A source that turns HTTP requests into messages and the messages its flow returns into responses.
 *
 * <p>The message of a request has its body as payload (null when empty; a {@code String} when the
 * content type is text, JSON, XML or a form, decoded in its charset; bytes otherwise), aggregated
 * up to the server's maxBodySize. A <em>streaming</em> listener instead hands the flow its message
 * as soon as the headers are in, with an {@link java.io.InputStream} as payload that yields the
 * body while it arrives: the body may be of any size, at most about 256 KiB of it wait in memory
 * (past that the socket is not read until the flow catches up), and it must be read by a
 * BLOCKING_IO processor, off the event loop. A response sent before the body ended closes the
 * connection; a body still arriving when requestTimeout runs out is answered 408. Its attributes:
 * {@code method}, {@code path}, {@code requestUri}, {@code queryString}, {@code listenerPath},
 * {@code version}, {@code remoteAddress}, {@code headers} (lower-case names, repeated headers
 * joined by ", "), {@code queryParams} (the first value of each) and {@code pathParams} (the {@code
 * {name}} segments of the path).
 *
 * <p>The response comes from the message the flow ends with: the status from the variable {@link
 * #STATUS} (200 unless set), the headers from the variable {@link #HEADERS} (a map), the body from
 * the payload (bytes as they are, an {@link java.io.InputStream} read to its end off the event
 * loop, anything else as UTF-8 text). A failed flow answers 500 with no detail, 503 when it failed
 * with a {@link io.sluice.core.ThrottledException} and 504 with a timeout (its error handler may
 * set the status and continue instead); a busy flow answers 503 with {@code Retry-After}. The
 * request is offered to the flow ({@link SourceContext#offer}), which never holds the event loop:
 * where the flow would wait for room it answers 503 at once.
 */
public final class HttpListenerSource implements Source, HealthContributor {

  /** The variable that holds the response status. */
  public static final String STATUS = "httpStatus";

  /** The variable that holds the response headers, a map of names to values. */
  public static final String HEADERS = "httpHeaders";

  private final HttpServerConfig server;
  private final PathPattern path;
  private final Set<String> methods;
  private final boolean streaming;
  private volatile HttpServer running;
  private volatile Route route;
  private volatile CompletableFuture<Void> stopped = CompletableFuture.completedFuture(null);

  /**
   * A listener on {@code server} for {@code path} ({@code /orders/{id}}, {@code /files/*}) and
   * {@code methods} (every method when empty).
   */
  public HttpListenerSource(HttpServerConfig server, String path, Set<String> methods) {
    this(server, path, methods, false);
  }

  /**
   * A listener as {@link #HttpListenerSource(HttpServerConfig, String, Set)} that, when {@code
   * streaming}, hands each request's body to the flow as an {@link java.io.InputStream} while it
   * arrives instead of aggregating it first.
   */
  public HttpListenerSource(
      HttpServerConfig server, String path, Set<String> methods, boolean streaming) {
    this.server = server;
    this.streaming = streaming;
    this.path = PathPattern.parse(path);
    Set<String> upper = new TreeSet<>();
    methods.forEach(m -> upper.add(m.toUpperCase(Locale.ROOT)));
    this.methods = Set.copyOf(upper);
  }

  /** The server's configuration. */
  public HttpServerConfig server() {
    return server;
  }

  /** The path pattern. */
  public String path() {
    return path.toString();
  }

  /** The methods taken, upper case; empty for all. */
  public Set<String> methods() {
    return methods;
  }

  /** Whether request bodies reach the flow as streams while they arrive. */
  public boolean streaming() {
    return streaming;
  }

  /** A streaming listener's payloads are the request bodies as streams. */
  @Override
  public boolean handsStreams() {
    return streaming;
  }

  @Override
  public void start(SourceContext context) {
    Route mine = new Route(path, methods, context, streaming);
    running = HttpServers.join(server, mine, context.meterRegistry());
    route = mine;
  }

  /** The port it listens on once started (the chosen one when the configuration said 0). */
  public int port() {
    HttpServer current = running;
    if (current == null) {
      throw new IllegalStateException("the listener is not started");
    }
    return current.port();
  }

  /**
   * Stops taking requests: the server (when no other listener uses it) stops accepting, answers its
   * responses in flight and closes its connections, within its shutdownTimeout.
   */
  @Override
  public void stop() {
    HttpServer current = running;
    if (current != null) {
      HttpServers.leave(current, route);
      running = null;
      stopped = current.terminated();
    }
  }

  /** Bound: its server's socket listens (draining at a stop counts as down: no new request). */
  @Override
  public List<HealthCheck> health() {
    HttpServer current = running;
    String where = server.host() + ":" + (current == null ? server.port() : current.port()) + path;
    if (current == null) {
      return List.of(HealthCheck.down("http-listener " + where, "not started"));
    }
    return List.of(
        current.listening()
            ? HealthCheck.up("http-listener " + where, "listening")
            : HealthCheck.down("http-listener " + where, "its socket is closed"));
  }

  @Override
  public String component() {
    return "http-listener " + server.host() + ":" + server.port() + path;
  }

  /** Completes when the server this listener used let go of its last connection. */
  public CompletableFuture<Void> terminated() {
    return stopped;
  }

  @Override
  public String name() {
    return "http-listener("
        + (methods.isEmpty() ? "" : String.join(",", methods) + " ")
        + server.host()
        + ":"
        + server.port()
        + path
        + ")";
  }
}
