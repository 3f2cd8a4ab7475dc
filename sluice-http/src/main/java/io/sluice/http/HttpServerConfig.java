package io.sluice.http;

import io.sluice.core.ConfigProblems;
import java.time.Duration;

/**
 * The HTTP server one or more listeners share: where it listens and the limits it holds every
 * connection and request to. Listeners of several flows on the same host and port share one server
 * and must give it the same configuration.
 *
 * @param host the address to bind ({@code 0.0.0.0} for every interface)
 * @param port the port (0: any free port, see {@link HttpListenerSource#port()})
 * @param maxBodySize the largest request body in bytes; a larger one is answered 413
 * @param maxHeaderSize the most bytes of request headers; more is answered 431
 * @param maxInitialLineLength the longest request line; longer is answered 414
 * @param requestTimeout from a request's first byte to its response; a request still arriving then
 *     is answered 408 (a slow client), one still in its flow 504
 * @param idleTimeout how long a connection with no request in progress stays open
 * @param maxConnections the most open connections; one more is answered 503 and closed
 * @param keepAlive whether connections are kept open between requests (HTTP/1.1 keep-alive)
 * @param backlog the socket accept backlog: connections the OS queues before they are accepted
 * @param retryAfter what a 503 (busy) answer tells clients in its {@code Retry-After} header
 * @param shutdownTimeout how long a stopping server waits for responses in flight before closing
 *     the connections that still carry one
 * @param tls HTTPS: the server's certificate and the TLS it speaks; null for plain HTTP
 */
public record HttpServerConfig(
    String host,
    int port,
    long maxBodySize,
    int maxHeaderSize,
    int maxInitialLineLength,
    Duration requestTimeout,
    Duration idleTimeout,
    int maxConnections,
    boolean keepAlive,
    int backlog,
    Duration retryAfter,
    Duration shutdownTimeout,
    TlsConfig tls) {

  /** The most bytes of request headers, and the longest request line: 1 MiB. */
  public static final int MAX_HEAD_SIZE = 1 << 20;

  /** The most open connections of one server: a million. */
  public static final int MAX_CONNECTIONS = 1_000_000;

  /** The largest accept backlog (the OS caps it lower still). */
  public static final int MAX_BACKLOG = 65_535;

  /** Checks every rule and lists every violation at once. */
  public HttpServerConfig {
    ConfigProblems problems = new ConfigProblems();
    problems.check(host != null && !host.isBlank(), "host", host, "is required");
    problems.check(port >= 0 && port <= 65_535, "port", port, "must be between 0 and 65535");
    problems.check(
        maxBodySize >= 0 && maxBodySize <= Integer.MAX_VALUE,
        "maxBodySize",
        maxBodySize,
        "must be between 0 and 2147483647 bytes");
    problems.check(maxHeaderSize >= 256, "maxHeaderSize", maxHeaderSize, "must be at least 256");
    problems.atMost("maxHeaderSize", maxHeaderSize, MAX_HEAD_SIZE);
    problems.check(
        maxInitialLineLength >= 64,
        "maxInitialLineLength",
        maxInitialLineLength,
        "must be at least 64");
    problems.atMost("maxInitialLineLength", maxInitialLineLength, MAX_HEAD_SIZE);
    positive(problems, "requestTimeout", requestTimeout);
    positive(problems, "idleTimeout", idleTimeout);
    problems.check(maxConnections >= 1, "maxConnections", maxConnections, "must be at least 1");
    problems.atMost("maxConnections", maxConnections, MAX_CONNECTIONS);
    problems.check(backlog >= 1, "backlog", backlog, "must be at least 1");
    problems.atMost("backlog", backlog, MAX_BACKLOG);
    problems.check(
        retryAfter != null
            && !retryAfter.isNegative()
            && retryAfter.compareTo(ConfigProblems.MAX_DURATION) <= 0
            && retryAfter.toMillis() % 1000 == 0,
        "retryAfter",
        retryAfter,
        "must be a whole number of seconds, from 0 to 24h");
    positive(problems, "shutdownTimeout", shutdownTimeout);
    problems.check(
        tls == null || tls.hasIdentity(),
        "tls.certificate",
        null,
        "is required: an HTTPS listener serves a certificate (certificate and key, or keyStore)");
    problems.throwIfAny();
  }

  /** Positive and at most a day: a timeout of millions of days overflows Netty's nanoseconds. */
  private static void positive(ConfigProblems problems, String key, Duration value) {
    if (problems.check(
        value != null && value.isPositive(), key, value, "must be a positive duration")) {
      problems.atMost(key, value, ConfigProblems.MAX_DURATION);
    }
  }

  /** A builder for a server on {@code port} of every interface, with the defaults. */
  public static Builder builder(int port) {
    return new Builder(port);
  }

  /** Builds an {@link HttpServerConfig}; unset values keep their defaults. */
  public static final class Builder {
    private String host = "0.0.0.0";
    private final int port;
    private long maxBodySize = 10L * 1024 * 1024;
    private int maxHeaderSize = 8192;
    private int maxInitialLineLength = 4096;
    private Duration requestTimeout = Duration.ofSeconds(60);
    private Duration idleTimeout = Duration.ofSeconds(60);
    private int maxConnections = 10_000;
    private boolean keepAlive = true;
    private int backlog = 1024;
    private Duration retryAfter = Duration.ofSeconds(1);
    private Duration shutdownTimeout = Duration.ofSeconds(30);
    private TlsConfig tls;

    private Builder(int port) {
      this.port = port;
    }

    /** The address to bind (0.0.0.0 unless set). */
    public Builder host(String value) {
      this.host = value;
      return this;
    }

    /** The largest request body in bytes (10 MiB unless set). */
    public Builder maxBodySize(long value) {
      this.maxBodySize = value;
      return this;
    }

    /** The most bytes of request headers (8 KiB unless set). */
    public Builder maxHeaderSize(int value) {
      this.maxHeaderSize = value;
      return this;
    }

    /** The longest request line (4 KiB unless set). */
    public Builder maxInitialLineLength(int value) {
      this.maxInitialLineLength = value;
      return this;
    }

    /** From a request's first byte to its response (60 s unless set). */
    public Builder requestTimeout(Duration value) {
      this.requestTimeout = value;
      return this;
    }

    /** How long a connection without a request stays open (60 s unless set). */
    public Builder idleTimeout(Duration value) {
      this.idleTimeout = value;
      return this;
    }

    /** The most open connections (10,000 unless set). */
    public Builder maxConnections(int value) {
      this.maxConnections = value;
      return this;
    }

    /** Whether connections stay open between requests (true unless set). */
    public Builder keepAlive(boolean value) {
      this.keepAlive = value;
      return this;
    }

    /** The socket accept backlog (1024 unless set). */
    public Builder backlog(int value) {
      this.backlog = value;
      return this;
    }

    /** The {@code Retry-After} of a busy answer (1 s unless set). */
    public Builder retryAfter(Duration value) {
      this.retryAfter = value;
      return this;
    }

    /** How long a stopping server waits for responses in flight (30 s unless set). */
    public Builder shutdownTimeout(Duration value) {
      this.shutdownTimeout = value;
      return this;
    }

    /** Serves HTTPS with this TLS configuration (plain HTTP unless set). */
    public Builder tls(TlsConfig value) {
      this.tls = value;
      return this;
    }

    /** The configuration; fails listing every broken rule. */
    public HttpServerConfig build() {
      return new HttpServerConfig(
          host,
          port,
          maxBodySize,
          maxHeaderSize,
          maxInitialLineLength,
          requestTimeout,
          idleTimeout,
          maxConnections,
          keepAlive,
          backlog,
          retryAfter,
          shutdownTimeout,
          tls);
    }
  }
}
