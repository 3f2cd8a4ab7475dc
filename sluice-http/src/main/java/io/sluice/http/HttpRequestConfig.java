package io.sluice.http;

import io.sluice.core.ConfigProblems;
import io.sluice.core.expression.Template;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * One outbound call of an {@link HttpRequestProcessor}: the method, the URL and headers (templates,
 * evaluated against each message), and the limits of the call.
 *
 * @param method the method, upper case
 * @param url the URL, {@code http://host:port/path?query} or {@code https://...}; a template
 * @param headers request headers; each value a template
 * @param connectTimeout how long connecting may take
 * @param responseTimeout from sending the request to the whole response; past it the call fails
 *     with a {@link java.util.concurrent.TimeoutException}, which the {@code auto} strategy reads
 *     as load
 * @param maxConnectionsPerHost the most calls at once to one host and port; more wait their turn
 * @param maxResponseSize the largest response body in bytes
 * @param failOnErrorStatus whether a status of 400 or more fails the call ({@link
 *     HttpStatusException}); 429 and 503 always fail as {@link io.sluice.core.ThrottledException}
 * @param tls for {@code https://} URLs: the authorities trusted (the JDK's when null) and the
 *     requester's own certificate, if a server asks for one; the server's host name is always
 *     verified against its certificate
 */
public record HttpRequestConfig(
    String method,
    Template url,
    Map<String, Template> headers,
    Duration connectTimeout,
    Duration responseTimeout,
    int maxConnectionsPerHost,
    long maxResponseSize,
    boolean failOnErrorStatus,
    TlsConfig tls) {

  /** The most calls at once to one host and port: ten thousand. */
  public static final int MAX_CONNECTIONS_PER_HOST = 10_000;

  /** Checks every rule and lists every violation at once. */
  public HttpRequestConfig {
    ConfigProblems problems = new ConfigProblems();
    problems.check(
        method != null && method.matches("[A-Za-z]+"), "method", method, "must be a method name");
    problems.check(url != null, "url", null, "is required");
    String scheme = url == null ? null : scheme(url.text());
    problems.check(
        scheme == null || scheme.equals("http") || scheme.equals("https"),
        "url",
        url == null ? null : url.text(),
        "must be an http:// or https:// URL");
    problems.check(
        tls == null || tls.clientAuth() == TlsConfig.ClientAuth.NONE,
        "tls.clientAuth",
        tls == null ? null : tls.clientAuth(),
        "is for listeners; a requester sends its certificate when the server asks");
    problems.check(
        connectTimeout != null && connectTimeout.isPositive(),
        "connectTimeout",
        connectTimeout,
        "must be a positive duration");
    problems.atMost("connectTimeout", connectTimeout, ConfigProblems.MAX_DURATION);
    problems.check(
        responseTimeout != null && responseTimeout.isPositive(),
        "responseTimeout",
        responseTimeout,
        "must be a positive duration");
    problems.atMost("responseTimeout", responseTimeout, ConfigProblems.MAX_DURATION);
    problems.check(
        maxConnectionsPerHost >= 1,
        "maxConnectionsPerHost",
        maxConnectionsPerHost,
        "must be at least 1");
    problems.atMost("maxConnectionsPerHost", maxConnectionsPerHost, MAX_CONNECTIONS_PER_HOST);
    problems.check(
        maxResponseSize >= 0 && maxResponseSize <= Integer.MAX_VALUE,
        "maxResponseSize",
        maxResponseSize,
        "must be between 0 and 2147483647 bytes");
    problems.throwIfAny();
    method = method.toUpperCase(Locale.ROOT);
    headers = headers == null ? Map.of() : Map.copyOf(headers);
  }

  /**
   * The scheme a URL template starts with, lower case, when its text before the first expression
   * says it; "" when a URL without expressions has none; null when an expression makes it.
   */
  private static String scheme(String text) {
    int expression = text.indexOf("#[");
    String literal = expression < 0 ? text : text.substring(0, expression);
    int colon = literal.indexOf("://");
    if (colon < 0) {
      return expression < 0 ? "" : null;
    }
    return literal.substring(0, colon).toLowerCase(Locale.ROOT);
  }

  /** A builder for {@code method} calls to {@code url} (a template), with the defaults. */
  public static Builder builder(String method, Template url) {
    return new Builder(method, url);
  }

  /** Builds an {@link HttpRequestConfig}; unset values keep their defaults. */
  public static final class Builder {
    private final String method;
    private final Template url;
    private Map<String, Template> headers = Map.of();
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration responseTimeout = Duration.ofSeconds(30);
    private int maxConnectionsPerHost = 100;
    private long maxResponseSize = 10L * 1024 * 1024;
    private boolean failOnErrorStatus = true;
    private TlsConfig tls;

    private Builder(String method, Template url) {
      this.method = method;
      this.url = url;
    }

    /** Request headers, each value a template (none unless set). */
    public Builder headers(Map<String, Template> value) {
      this.headers = value;
      return this;
    }

    /** How long connecting may take (10 s unless set). */
    public Builder connectTimeout(Duration value) {
      this.connectTimeout = value;
      return this;
    }

    /** From the request sent to the whole response (30 s unless set). */
    public Builder responseTimeout(Duration value) {
      this.responseTimeout = value;
      return this;
    }

    /** The most calls at once to one host and port (100 unless set). */
    public Builder maxConnectionsPerHost(int value) {
      this.maxConnectionsPerHost = value;
      return this;
    }

    /** The largest response body in bytes (10 MiB unless set). */
    public Builder maxResponseSize(long value) {
      this.maxResponseSize = value;
      return this;
    }

    /** Whether a status of 400 or more fails the call (true unless set). */
    public Builder failOnErrorStatus(boolean value) {
      this.failOnErrorStatus = value;
      return this;
    }

    /**
     * For https:// URLs: authorities trusted and an own certificate (the JDK's trust unless set).
     */
    public Builder tls(TlsConfig value) {
      this.tls = value;
      return this;
    }

    /** The configuration; fails listing every broken rule. */
    public HttpRequestConfig build() {
      return new HttpRequestConfig(
          method,
          url,
          headers,
          connectTimeout,
          responseTimeout,
          maxConnectionsPerHost,
          maxResponseSize,
          failOnErrorStatus,
          tls);
    }
  }
}
