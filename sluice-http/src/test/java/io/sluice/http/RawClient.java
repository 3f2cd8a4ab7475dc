package io.sluice.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * A client on a plain socket, for what a well-behaved HTTP client never sends: malformed requests,
 * huge headers, a request sent one byte at a time.
 */
final class RawClient implements AutoCloseable {

  private final Socket socket;

  RawClient(int port) throws IOException {
    this(new Socket("127.0.0.1", port));
  }

  /** A client on a socket already connected (a TLS one, say). */
  RawClient(Socket socket) throws IOException {
    this.socket = socket;
    socket.setSoTimeout(10_000);
  }

  RawClient send(String text) throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write(text.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
    return this;
  }

  /** Everything the server sends until it closes the connection. */
  String readUntilClosed() throws IOException {
    InputStream in = socket.getInputStream();
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        all.write(buffer, 0, n);
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the server did not close; it sent: " + all.toString(), e);
    }
    return all.toString(StandardCharsets.ISO_8859_1);
  }

  /** One response with a Content-Length, leaving the connection open for the next. */
  String readResponse() throws IOException {
    InputStream in = socket.getInputStream();
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new AssertionError("the server closed mid-response: " + head);
      }
      head.write(b);
    }
    String headers = head.toString(StandardCharsets.ISO_8859_1);
    int length = 0;
    for (String line : headers.split("\r\n")) {
      if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring("content-length:".length()).trim());
      }
    }
    return headers + new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
  }

  /** Whether the server closed the connection (reads end of stream within the socket timeout). */
  boolean closedByServer() throws IOException {
    try {
      return socket.getInputStream().read() < 0;
    } catch (java.net.SocketException reset) {
      return true;
    }
  }

  /** The status code of a response text. */
  static int status(String response) {
    if (!response.startsWith("HTTP/1.1 ")) {
      throw new AssertionError("not an HTTP response: '" + response + "'");
    }
    return Integer.parseInt(response.substring(9, 12));
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
