package io.sluice.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP forwarder on 127.0.0.1 in front of a real server, for an outage a test controls: {@link
 * #cut()} closes the listening socket and every connection, as a database that went away would (new
 * connections are refused, open ones reset); {@link #restore()} listens again on the same port.
 * Bytes are copied as they are, on virtual threads.
 */
public final class TcpProxy implements AutoCloseable {

  private final String targetHost;
  private final int targetPort;
  private final int port;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private volatile ServerSocket server;

  private TcpProxy(String targetHost, int targetPort, ServerSocket server) {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    this.server = server;
    this.port = server.getLocalPort();
    accept(server);
  }

  /** A proxy on a free port of 127.0.0.1 forwarding to {@code host:port}. */
  public static TcpProxy to(String host, int port) throws IOException {
    ServerSocket server = new ServerSocket();
    server.setReuseAddress(true);
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    return new TcpProxy(host, port, server);
  }

  /** The port it listens on (the same after a {@link #restore()}). */
  public int port() {
    return port;
  }

  /** Refuses new connections and resets every open one. */
  public synchronized void cut() throws IOException {
    server.close();
    for (Socket socket : sockets) {
      socket.close();
    }
    sockets.clear();
  }

  /** Listens again on the same port. */
  public synchronized void restore() throws IOException {
    ServerSocket again = new ServerSocket();
    again.setReuseAddress(true);
    again.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    server = again;
    accept(again);
  }

  private void accept(ServerSocket listening) {
    Thread.ofVirtual()
        .name("tcp-proxy-" + port)
        .start(
            () -> {
              while (!listening.isClosed()) {
                try {
                  Socket client = listening.accept();
                  Socket target = new Socket(targetHost, targetPort);
                  sockets.add(client);
                  sockets.add(target);
                  pipe(client, target);
                  pipe(target, client);
                } catch (IOException e) {
                  // closed by cut(), or the target refused: the client sees its socket closed
                }
              }
            });
  }

  private void pipe(Socket from, Socket to) {
    Thread.ofVirtual()
        .start(
            () -> {
              byte[] buffer = new byte[16 * 1024];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                  out.write(buffer, 0, n);
                  out.flush();
                }
              } catch (IOException e) {
                // one side closed: close both
              } finally {
                closeQuietly(from);
                closeQuietly(to);
                sockets.remove(from);
                sockets.remove(to);
              }
            });
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    cut();
  }
}
