package io.sluice.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.junit.jupiter.api.Assumptions;

/**
 * Whether a server the tests use (PostgreSQL, MariaDB) listens: without it the tests are skipped
 * with a message, except in CI (env {@code CI=true}), where they fail, since CI must run them.
 */
public final class TestServers {

  private TestServers() {}

  /**
   * Returns when {@code name} listens at {@code host}:{@code port}; otherwise skips the test, or in
   * CI fails it, saying what {@code setup} it needs.
   */
  public static void require(String name, String host, int port, String setup) {
    if (reachable(host, port)) {
      return;
    }
    String why = name + " is not reachable at " + host + ":" + port;
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      fail(why + "; " + name + " is required in CI (" + setup + ")");
    }
    Assumptions.abort(why + "; skipping the " + name + " tests (start one to run them)");
  }

  /** Whether something accepts connections at {@code host}:{@code port}. */
  public static boolean reachable(String host, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
