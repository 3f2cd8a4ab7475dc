package io.sluice.cli;

import io.sluice.core.store.StorageConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a {@code sluice} command finds the {@code sluice run} that holds an embedded store: that
 * process writes {@code <store file>.management} beside the SQLite file (the URL of its management
 * port and its process id) and deletes it when it stops; a command that finds the store held reads
 * it and asks the API instead. A file left by a process that is gone, or whose port no longer
 * answers (killed with SIGKILL), is stale and ignored.
 */
final class ManagementDiscovery {

  private static final Logger LOG = LoggerFactory.getLogger("sluice");

  /** How long a command tries to reach the port a discovery file names. */
  private static final int CONNECT_MILLIS = 1_000;

  /** What was found: the API's address, or why there is none. */
  record Found(URI url, String whyNot) {}

  private ManagementDiscovery() {}

  /** The discovery file of the SQLite store {@code file}. */
  static Path fileOf(Path file) {
    Path absolute = file.toAbsolutePath().normalize();
    return absolute.resolveSibling(absolute.getFileName() + ".management");
  }

  /**
   * Writes the discovery file of {@code config}'s store when it is an embedded one, naming the
   * management port {@code host:port}; closing the result deletes it. Does nothing for another
   * store (every process opens a PostgreSQL store by itself).
   */
  static AutoCloseable publish(StorageConfig config, String host, int port) {
    if (!config.type().equals(StorageConfig.SQLITE)) {
      return () -> {};
    }
    Path file = fileOf(config.sqliteFile());
    String text =
        "# written by sluice run: the management API of the process that holds this store\n"
            + "url="
            + url(host, port)
            + "\npid="
            + ProcessHandle.current().pid()
            + "\n";
    try {
      Path temporary = Files.createTempFile(file.getParent(), ".management", ".tmp");
      Files.writeString(temporary, text, StandardCharsets.UTF_8);
      try {
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      LOG.warn(
          "Could not write {} ({}); sluice jobs cannot reach this process while it holds the store",
          file,
          e.toString());
      return () -> {};
    }
    return () -> Files.deleteIfExists(file);
  }

  /** The address a client reaches the port bound to {@code host} at: loopback for a wildcard. */
  private static String url(String host, int port) {
    String reach = host;
    try {
      if (InetAddress.getByName(host).isAnyLocalAddress()) {
        reach = "127.0.0.1";
      }
    } catch (IOException e) {
      // a name that resolved when the port was bound: use it as it is
    }
    if (reach.contains(":") && !reach.startsWith("[")) {
      reach = "[" + reach + "]"; // an IPv6 address
    }
    return "http://" + reach + ":" + port;
  }

  /** The live API of the process that holds the SQLite store {@code file}, or why there is none. */
  static Found find(Path file) {
    Path discovery = fileOf(file);
    Properties said = new Properties();
    try (var reader = Files.newBufferedReader(discovery, StandardCharsets.UTF_8)) {
      said.load(reader);
    } catch (IOException e) {
      return new Found(
          null,
          "no "
              + discovery
              + " (the process that holds it serves no management port: start sluice run with"
              + " --management-port)");
    }
    URI url;
    long pid;
    try {
      url = URI.create(said.getProperty("url", ""));
      pid = Long.parseLong(said.getProperty("pid", ""));
    } catch (IllegalArgumentException e) {
      return new Found(null, discovery + " is not one sluice run wrote: " + e.getMessage());
    }
    if (ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty()) {
      return new Found(null, discovery + " is stale: process " + pid + " is gone");
    }
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(url.getHost(), url.getPort()), CONNECT_MILLIS);
    } catch (IOException | IllegalArgumentException e) {
      return new Found(null, discovery + " is stale: nothing answers at " + url + " (" + e + ")");
    }
    return new Found(url, null);
  }
}
