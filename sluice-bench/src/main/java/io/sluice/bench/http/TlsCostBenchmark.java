package io.sluice.bench.http;

import io.sluice.bench.CommandLineOptions;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.http.HttpListenerSource;
import io.sluice.http.HttpServerConfig;
import io.sluice.http.TlsConfig;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * What TLS costs the HTTP listener: one Sluice application serves the same CPU_LITE flow on a plain
 * port and on an HTTPS port (JDK provider, TLSv1.3, an EC P-256 certificate keytool makes), and
 * client threads in the same process measure, for each port, requests/s over kept-alive connections
 * ({@code --clients} threads, one connection each) and requests/s with a new connection per request
 * ({@code --connect-clients} threads; each TLS session is invalidated after its request so that
 * every handshake is a full one, not a resumption). The handshake's cost is the time per request on
 * a new connection, TLS minus plain, per client thread. Each cell is measured {@code --repeats}
 * times, alternating plain and TLS, and the median printed.
 *
 * <pre>
 * ./mvnw -q -pl sluice-bench -am package -DskipTests
 * sluice-bench/run-main.sh 1g io.sluice.bench.http.TlsCostBenchmark [--clients 16]
 *     [--connect-clients 4] [--warm-up 2] [--seconds 5] [--repeats 3]
 * </pre>
 */
public final class TlsCostBenchmark {

  private static final String PASSWORD = "bench-" + ProcessHandle.current().pid();
  private static final byte[] REQUEST =
      "GET /tls HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CLOSING_REQUEST =
      "GET /tls HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
          .getBytes(StandardCharsets.US_ASCII);

  private TlsCostBenchmark() {}

  /** Runs every cell and prints the medians and their ratios. */
  public static void main(String[] args) throws Exception {
    CommandLineOptions options = CommandLineOptions.parse(args);
    int clients = options.integer("clients", 16);
    int connectClients = options.integer("connect-clients", 4);
    double warmUp = options.decimal("warm-up", 2);
    double seconds = options.decimal("seconds", 5);
    int repeats = options.integer("repeats", 3);
    options.requireAllRead();

    Path directory = Files.createTempDirectory("sluice-tls-bench");
    Path keyStore = keyStore(directory);
    SSLContext trusting = trusting(keyStore);
    TlsConfig tls =
        TlsConfig.builder()
            .keyStore(keyStore)
            .password(PASSWORD)
            .protocols(List.of("TLSv1.3"))
            .build();
    HttpListenerSource plain = listener(HttpServerConfig.builder(0).host("127.0.0.1").build());
    HttpListenerSource secure =
        listener(HttpServerConfig.builder(0).host("127.0.0.1").tls(tls).build());
    Processor ok = Processor.of(ProcessingType.CPU_LITE, m -> m.withPayload("ok"));
    try (Application app =
        Application.builder()
            .flow(Flow.builder("plain").source(plain).processor(ok).build())
            .flow(Flow.builder("tls").source(secure).processor(ok).build())
            .build()) {
      app.start();
      Target http = new Target("http", plain.port(), null);
      Target https = new Target("https", secure.port(), trusting);
      double[][] keptAlive = new double[2][repeats];
      double[][] connecting = new double[2][repeats];
      double[] openssl = new double[repeats];
      for (int r = 0; r < repeats; r++) {
        keptAlive[0][r] = run(http, clients, false, warmUp, seconds);
        keptAlive[1][r] = run(https, clients, false, warmUp, seconds);
        connecting[0][r] = run(http, connectClients, true, warmUp, seconds);
        connecting[1][r] = run(https, connectClients, true, warmUp, seconds);
        openssl[r] = opensslHandshakes(https.port(), warmUp + seconds);
        System.out.printf(
            Locale.ROOT,
            "repeat %d: kept-alive %.0f / %.0f req/s, new connection %.0f / %.0f req/s"
                + " (plain / tls), openssl s_time %.0f handshakes/s%n",
            r + 1,
            keptAlive[0][r],
            keptAlive[1][r],
            connecting[0][r],
            connecting[1][r],
            openssl[r]);
      }
      double plainKept = median(keptAlive[0]);
      double tlsKept = median(keptAlive[1]);
      double plainNew = median(connecting[0]);
      double tlsNew = median(connecting[1]);
      double handshakeMillis = (connectClients / tlsNew - connectClients / plainNew) * 1000;
      System.out.printf(
          Locale.ROOT,
          "medians of %d, %d cores:%n"
              + "kept-alive (%d clients):      plain %.0f req/s, tls %.0f req/s, tls/plain %.2f%n"
              + "new connection (%d clients):  plain %.0f req/s, tls %.0f req/s, tls/plain %.2f%n"
              + "tls kept-alive / tls new connection: %.1fx%n"
              + "full handshake (client and server in this process): %.2f ms per connection%n"
              + "full handshakes, openssl s_time client, one at a time: %.0f/s (%.2f ms each)%n",
          repeats,
          Runtime.getRuntime().availableProcessors(),
          clients,
          plainKept,
          tlsKept,
          tlsKept / plainKept,
          connectClients,
          plainNew,
          tlsNew,
          tlsNew / plainNew,
          tlsKept / tlsNew,
          handshakeMillis,
          median(openssl),
          1000 / median(openssl));
    }
  }

  /** A port to call, over TLS when {@code tls} is not null. */
  private record Target(String name, int port, SSLContext tls) {
    Socket open() throws IOException {
      Socket socket =
          tls == null
              ? new Socket("127.0.0.1", port)
              : tls.getSocketFactory().createSocket("127.0.0.1", port);
      socket.setTcpNoDelay(true);
      socket.setSoTimeout(10_000);
      if (socket instanceof SSLSocket secure) {
        secure.startHandshake();
      }
      return socket;
    }
  }

  private static HttpListenerSource listener(HttpServerConfig server) {
    return new HttpListenerSource(server, "/tls", Set.of("GET"));
  }

  /** Requests/s {@code clients} threads get in {@code seconds} after {@code warmUp}. */
  private static double run(
      Target target, int clients, boolean newConnections, double warmUp, double seconds)
      throws InterruptedException {
    LongAdder counted = new LongAdder();
    AtomicBoolean measuring = new AtomicBoolean();
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int i = 0; i < clients; i++) {
      Runnable client =
          () -> {
            try {
              if (newConnections) {
                while (!stop.get()) {
                  try (Socket socket = target.open()) {
                    socket.getOutputStream().write(CLOSING_REQUEST);
                    readResponse(new BufferedInputStream(socket.getInputStream()));
                    if (socket instanceof SSLSocket secure) {
                      secure.getSession().invalidate(); // the next one a full handshake
                    }
                  }
                  if (measuring.get()) {
                    counted.increment();
                  }
                }
              } else {
                try (Socket socket = target.open()) {
                  OutputStream out = socket.getOutputStream();
                  // Buffered: a plain socket's read() is a system call per byte, a TLS one's not.
                  InputStream in = new BufferedInputStream(socket.getInputStream());
                  while (!stop.get()) {
                    out.write(REQUEST);
                    readResponse(in);
                    if (measuring.get()) {
                      counted.increment();
                    }
                  }
                }
              }
            } catch (IOException e) {
              failures.add(e);
            }
          };
      threads.add(Thread.ofPlatform().name(target.name() + "-client-" + i).start(client));
    }
    TimeUnit.MILLISECONDS.sleep((long) (warmUp * 1000)); // the run's own length, not a wait
    measuring.set(true);
    long started = System.nanoTime();
    TimeUnit.MILLISECONDS.sleep((long) (seconds * 1000));
    long counting = counted.sum();
    double elapsed = (System.nanoTime() - started) / 1e9;
    stop.set(true);
    for (Thread thread : threads) {
      thread.join();
    }
    if (!failures.isEmpty()) {
      throw new IllegalStateException(
          failures.size() + " clients of " + target.name() + " failed", failures.getFirst());
    }
    return counting / elapsed;
  }

  /** Reads one response with a Content-Length. */
  private static void readResponse(InputStream in) throws IOException {
    int length = -1;
    StringBuilder line = new StringBuilder();
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the server closed mid-response");
      }
      if (b != '\n') {
        line.append((char) b);
        continue;
      }
      String header = line.toString().trim();
      line.setLength(0);
      if (header.isEmpty()) {
        break;
      }
      if (header.regionMatches(true, 0, "content-length:", 0, 15)) {
        length = Integer.parseInt(header.substring(15).trim());
      }
    }
    if (length < 0 || in.readNBytes(length).length != length) {
      throw new IOException("a response without its body");
    }
  }

  /**
   * Full handshakes per second {@code openssl s_time} makes against {@code port} in {@code
   * seconds}, one connection at a time and no request; NaN without openssl.
   */
  private static double opensslHandshakes(int port, double seconds) throws Exception {
    Process process;
    long started = System.nanoTime();
    try {
      process =
          new ProcessBuilder(
                  "openssl",
                  "s_time",
                  "-connect",
                  "127.0.0.1:" + port,
                  "-new",
                  "-time",
                  String.valueOf((int) Math.ceil(seconds)))
              .redirectErrorStream(true)
              .start();
    } catch (IOException noOpenssl) {
      return Double.NaN;
    }
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    process.waitFor((long) seconds + 30, TimeUnit.SECONDS);
    double elapsed = (System.nanoTime() - started) / 1e9;
    // "167 connections in 7 real seconds, ...": whole seconds; the wall clock here is finer.
    var found = java.util.regex.Pattern.compile("(\\d+) connections in \\d+ real").matcher(output);
    return found.find() ? Double.parseDouble(found.group(1)) / elapsed : Double.NaN;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  /** A self-signed EC certificate for 127.0.0.1 in a PKCS#12 file, made by keytool. */
  private static Path keyStore(Path directory) throws Exception {
    Path file = directory.resolve("bench.p12");
    Process keytool =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                "bench",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=127.0.0.1",
                "-ext",
                "san=ip:127.0.0.1",
                "-validity",
                "2",
                "-keystore",
                file.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASSWORD,
                "-keypass",
                PASSWORD)
            .redirectErrorStream(true)
            .start();
    keytool.getOutputStream().close();
    String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
      throw new IllegalStateException("keytool failed: " + output);
    }
    return file;
  }

  private static SSLContext trusting(Path keyStore) throws Exception {
    KeyStore own = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keyStore)) {
      own.load(in, PASSWORD.toCharArray());
    }
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("bench", own.getCertificate("bench"));
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    SSLContext context = SSLContext.getInstance("TLSv1.3");
    context.init(null, factory.getTrustManagers(), null);
    return context;
  }
}
