package io.sluice.cli;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Map;

/**
 * Who may use the management port: anyone, or only a request carrying {@code Authorization: Bearer
 * TOKEN}. The token comes from a file ({@code --management-token-file}) or the environment ({@value
 * #TOKEN_VARIABLE}), never from the command line, where {@code ps} would show it. Binding to an
 * address other than loopback without a token is refused unless {@code
 * --management-allow-unauthenticated} says it on purpose.
 */
record ManagementAccess(byte[] token) {

  /** The environment variable a token may come from. */
  static final String TOKEN_VARIABLE = "SLUICE_MANAGEMENT_TOKEN";

  /** The shortest token accepted: shorter ones are guessable. */
  static final int MIN_TOKEN_LENGTH = 16;

  /** No token: every request is served. */
  static final ManagementAccess OPEN = new ManagementAccess(null);

  /**
   * The access the options and environment ask for, checked against the address bound: every
   * problem names the option, the value and the rule.
   */
  static ManagementAccess of(
      String host, Path tokenFile, boolean allowUnauthenticated, Map<String, String> env) {
    String token = null;
    String source = null;
    if (tokenFile != null) {
      source = "--management-token-file";
      try {
        token = Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
      } catch (IOException | RuntimeException e) {
        throw problem(source, tokenFile, "must name a readable file holding the token: " + e);
      }
    } else if (env.get(TOKEN_VARIABLE) != null) {
      source = TOKEN_VARIABLE;
      token = env.get(TOKEN_VARIABLE).strip();
    }
    if (token != null) {
      if (token.length() < MIN_TOKEN_LENGTH || !token.chars().allMatch(c -> c > 32 && c < 127)) {
        throw problem(
            source,
            "(" + token.length() + " characters, not shown)",
            "the token must be at least "
                + MIN_TOKEN_LENGTH
                + " printable ASCII characters without spaces (for example: openssl rand -hex"
                + " 32)");
      }
      return new ManagementAccess(token.getBytes(StandardCharsets.US_ASCII));
    }
    if (!allowUnauthenticated && !isLoopback(host)) {
      throw problem(
          "--management-host",
          host,
          "is not a loopback address, and the management port has no token: anyone who reaches"
              + " it could read the metrics. Give a token with --management-token-file FILE or "
              + TOKEN_VARIABLE
              + ", or say --management-allow-unauthenticated if the network is trusted");
    }
    return OPEN;
  }

  /** Whether a request with this {@code Authorization} header value may be served. */
  boolean admits(String authorization) {
    if (token == null) {
      return true;
    }
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return false;
    }
    byte[] given = authorization.substring(7).strip().getBytes(StandardCharsets.US_ASCII);
    return MessageDigest.isEqual(given, token); // in constant time: no timing hint
  }

  boolean required() {
    return token != null;
  }

  private static boolean isLoopback(String host) {
    try {
      for (InetAddress address : InetAddress.getAllByName(host)) {
        if (!address.isLoopbackAddress()) {
          return false;
        }
      }
      return true;
    } catch (UnknownHostException e) {
      throw problem("--management-host", host, "must be an address or a name that resolves");
    }
  }

  private static ConfigurationException problem(String option, Object value, String rule) {
    return new ConfigurationException(ConfigProblem.of(option, value, rule));
  }

  @Override
  public String toString() {
    return token == null ? "open" : "bearer token required";
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ManagementAccess access && MessageDigest.isEqual(token, access.token);
  }

  @Override
  public int hashCode() {
    return token == null ? 0 : token.length;
  }
}
