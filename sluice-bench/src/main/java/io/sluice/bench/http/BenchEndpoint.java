package io.sluice.bench.http;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * The two endpoints of benchmark E3 (and E2's {@link #WAIT}), the same on every target: a token
 * check (the {@value #TOKEN_HEADER} header must equal {@value #TOKEN}, else 401) and a fixed reply;
 * {@link #WAIT} waits one second between the two.
 */
enum BenchEndpoint {
  NODELAY("/nodelay", Duration.ZERO),
  WAIT("/wait", Duration.ofSeconds(1));

  static final String TOKEN_HEADER = "x-token";
  static final String TOKEN = "sluice-bench-token";
  static final String REPLY = "hello\n";
  static final String REFUSAL = "unauthorized\n";
  static final byte[] REPLY_BYTES = REPLY.getBytes(StandardCharsets.UTF_8);
  static final byte[] REFUSAL_BYTES = REFUSAL.getBytes(StandardCharsets.UTF_8);

  private final String path;
  private final Duration wait;

  BenchEndpoint(String path, Duration wait) {
    this.path = path;
    this.wait = wait;
  }

  String path() {
    return path;
  }

  Duration waitTime() {
    return wait;
  }

  /** The endpoint of {@code path}, ignoring a query string; null for none. */
  static BenchEndpoint of(String uri) {
    String path = pathOf(uri);
    for (BenchEndpoint endpoint : values()) {
      if (endpoint.path.equals(path)) {
        return endpoint;
      }
    }
    return null;
  }

  /** The path of {@code uri}, its query string left out. */
  static String pathOf(String uri) {
    int query = uri.indexOf('?');
    return query < 0 ? uri : uri.substring(0, query);
  }

  /** Whether the token header's value lets the request in. */
  static boolean authorized(String token) {
    return Objects.equals(token, TOKEN);
  }
}
