package io.sluice.cli;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The console's page on the management port: {@code /} (and {@code /console/}) serve {@code
 * index.html}, and {@code /console/console.js} and {@code /console/console.css} the script and the
 * style it loads; any other path answers 404. Three fixed resources of this module read once, so no
 * path a client sends reaches a file. The page holds no data: it reads it from {@code /api/} in the
 * browser, with the token the user types in when the API asks for one, so the page itself is served
 * without the token.
 *
 * <p>Every answer says {@code Cache-Control: no-store} and a Content-Security-Policy that lets the
 * page load and call nothing but this port ({@code default-src 'self'}, no inline script, no
 * framing).
 */
final class ConsolePage {

  /** The policy every page answer carries. */
  static final String POLICY =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self';"
          + " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
          + " frame-ancestors 'none'";

  private record Resource(String type, byte[] bytes) {}

  private static final Map<String, Resource> RESOURCES = resources();

  private static Map<String, Resource> resources() {
    Resource page = load("index.html", "text/html; charset=utf-8");
    return Map.of(
        "/", page,
        "/console", page,
        "/console/", page,
        "/console/index.html", page,
        "/console/console.js", load("console.js", "text/javascript; charset=utf-8"),
        "/console/console.css", load("console.css", "text/css; charset=utf-8"));
  }

  private static Resource load(String name, String type) {
    try (InputStream in = ConsolePage.class.getResourceAsStream("console/" + name)) {
      if (in == null) {
        throw new IllegalStateException("the console's " + name + " is missing from the jar");
      }
      return new Resource(type, in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the console's " + name, e);
    }
  }

  private ConsolePage() {}

  /** Answers a request for the page or one of its resources. */
  static void handle(HttpExchange exchange) throws IOException {
    try {
      String method = exchange.getRequestMethod();
      Resource resource = RESOURCES.get(exchange.getRequestURI().getRawPath());
      var headers = exchange.getResponseHeaders();
      headers.set("Cache-Control", "no-store");
      headers.set("Content-Security-Policy", POLICY);
      headers.set("X-Content-Type-Options", "nosniff");
      headers.set("Referrer-Policy", "no-referrer");
      if (resource == null) {
        ManagementServer.reply(
            exchange, 404, "text/plain; charset=utf-8", "Not found; the console is at /\n");
      } else if (!method.equals("GET") && !method.equals("HEAD")) {
        headers.set("Allow", "GET, HEAD");
        ManagementServer.reply(
            exchange, 405, "text/plain; charset=utf-8", "Only GET is supported\n");
      } else if (method.equals("HEAD")) {
        headers.set("Content-Type", resource.type());
        exchange.sendResponseHeaders(200, -1);
      } else {
        headers.set("Content-Type", resource.type());
        exchange.sendResponseHeaders(200, resource.bytes().length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(resource.bytes());
        }
      }
    } finally {
      exchange.close();
    }
  }
}
