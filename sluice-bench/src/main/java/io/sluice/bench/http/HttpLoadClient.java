package io.sluice.bench.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.sluice.bench.CommandLineOptions;
import io.sluice.bench.CpuTime;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The load side of benchmarks E2 and E3, in a process of its own: {@code --clients} simulated
 * clients, each one keep-alive connection to 127.0.0.1 with at most one request in flight, in one
 * of three modes ({@link LoadPlan.Mode}): {@code closed} (the next request when the previous one is
 * answered: throughput), {@code paced} (one request per {@code --interval} per client, latency from
 * each request's intended start) or {@code batch} ({@code --requests} back to back per client: the
 * makespan, E2). Prints one CSV line ({@link LoadReport#HEADER} first with {@code --header true}).
 * Usually run by {@code sluice-bench/run-e2e3.sh}; by hand, against a running {@link
 * HttpTargetServer}:
 *
 * <pre>
 * java -cp sluice-bench/target/benchmarks.jar io.sluice.bench.http.HttpLoadClient --port 8080
 *     [--path /nodelay] [--mode closed|paced|batch] [--clients 400] [--interval 1] [--requests 10]
 *     [--warm-up 2] [--seconds 10] [--timeout 10] [--server-pid 1234] [--header false]
 *     [--target sluice] [--strategy auto] [--threads -]
 * </pre>
 *
 * <p>Times are in seconds. A request counts when its intended start falls in the measured window
 * (after {@code --warm-up}); req/s counts the 2xx answers that arrived in the window. Errors are
 * counted by kind: a status other than 2xx, {@code timeout} (no answer within {@code --timeout};
 * the connection is then closed and opened again), {@code closed} (the server closed the connection
 * with the request in flight), {@code connect} (a connection could not be opened), {@code unsent}
 * (due in the window but not sent by the end: the server was too far behind) and {@code
 * connect_setup} (a connection that failed before the run).
 */
public final class HttpLoadClient {

  private static final int CONNECTS_AT_ONCE = 200;

  private HttpLoadClient() {}

  /** Runs the load the options describe and prints its CSV line. */
  public static void main(String[] args) throws InterruptedException {
    CommandLineOptions options = CommandLineOptions.parse(args);
    int port = options.integer("port", 0);
    String path = options.string("path", BenchEndpoint.NODELAY.path());
    LoadPlan plan =
        new LoadPlan(
            LoadPlan.Mode.valueOf(options.string("mode", "closed").toUpperCase(Locale.ROOT)),
            options.integer("clients", 400),
            nanos(options.decimal("interval", 1)),
            options.integer("requests", 10),
            nanos(options.decimal("warm-up", 2)),
            nanos(options.decimal("seconds", 10)),
            nanos(options.decimal("timeout", 10)));
    long serverPid = options.integer("server-pid", 0);
    boolean header = Boolean.parseBoolean(options.string("header", "false"));
    String labels =
        String.join(
            ",",
            options.string("target", "-"),
            options.string("strategy", "-"),
            options.string("threads", "-"));
    options.requireAllRead();
    if (port <= 0) {
      throw new IllegalArgumentException("--port is required: the target server's port");
    }
    LoadReport report = run(plan, port, path, serverPid, labels);
    if (header) {
      System.out.println(LoadReport.HEADER);
    }
    System.out.println(report.csvLine());
  }

  private static LoadReport run(LoadPlan plan, int port, String path, long serverPid, String labels)
      throws InterruptedException {
    EventLoopGroup group =
        new MultiThreadIoEventLoopGroup(
            Math.max(2, Runtime.getRuntime().availableProcessors()), NioIoHandler.newFactory());
    try {
      Bootstrap bootstrap =
          new Bootstrap()
              .group(group)
              .channel(NioSocketChannel.class)
              .option(ChannelOption.TCP_NODELAY, true)
              .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5_000)
              .remoteAddress("127.0.0.1", port);
      ByteBuf encoded = request(path, port);
      Supplier<Object> request = encoded::duplicate;
      LoadResults results = new LoadResults();
      CountDownLatch finished = new CountDownLatch(plan.clients());
      List<SimulatedClient> clients = new ArrayList<>(plan.clients());
      for (int i = 0; i < plan.clients(); i++) {
        clients.add(
            new SimulatedClient(
                plan, results, bootstrap, group.next(), request, finished::countDown));
      }
      openAll(clients);
      long clientCpu = CpuTime.ofThisProcess();
      long serverCpu = serverPid > 0 ? CpuTime.ofProcess(serverPid) : 0;
      long machineCpu = CpuTime.ofMachine();
      long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
      results.begin(plan.windowStart(start), plan.windowEnd(start));
      for (int i = 0; i < clients.size(); i++) {
        clients.get(i).start(start, i);
      }
      long waitUntil = plan.sendDeadline(start) + plan.timeoutNanos() + TimeUnit.SECONDS.toNanos(5);
      if (!finished.await(waitUntil - System.nanoTime(), TimeUnit.NANOSECONDS)) {
        System.err.println(finished.getCount() + " clients were still busy at the end: stopped");
        clients.forEach(SimulatedClient::stop);
        finished.await(5, TimeUnit.SECONDS);
      }
      long end = System.nanoTime();
      return new LoadReport(
          labels,
          path,
          plan,
          results,
          end - start,
          CpuTime.ofThisProcess() - clientCpu,
          serverPid > 0 ? CpuTime.ofProcess(serverPid) - serverCpu : 0,
          CpuTime.ofMachine() - machineCpu);
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  /**
   * Opens every client's connection before the run, {@value #CONNECTS_AT_ONCE} at a time: ten
   * thousand at once would overflow the server's accept backlog and wait for SYN retries.
   */
  private static void openAll(List<SimulatedClient> clients) throws InterruptedException {
    Semaphore slots = new Semaphore(CONNECTS_AT_ONCE);
    CountDownLatch opened = new CountDownLatch(clients.size());
    for (SimulatedClient client : clients) {
      if (!slots.tryAcquire(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException(
            "connections to the target took more than 30 s to open; is it running?");
      }
      client.open(
          () -> {
            slots.release();
            opened.countDown();
          });
    }
    if (!opened.await(60, TimeUnit.SECONDS)) {
      System.err.println(opened.getCount() + " connections were still opening after 60 s");
    }
  }

  /**
   * The request every client sends, encoded once: each send writes a duplicate of these bytes, so
   * the client spends its share of the two cores on as little as it can.
   */
  private static ByteBuf request(String path, int port) {
    String request =
        "GET "
            + path
            + " HTTP/1.1\r\nhost: 127.0.0.1:"
            + port
            + "\r\n"
            + BenchEndpoint.TOKEN_HEADER
            + ": "
            + BenchEndpoint.TOKEN
            + "\r\n\r\n";
    // Direct, so that the socket writes it without a copy; unreleasable, so that every duplicate
    // written can be released by Netty without freeing the bytes the others share.
    byte[] bytes = request.getBytes(StandardCharsets.US_ASCII);
    return Unpooled.unreleasableBuffer(Unpooled.directBuffer(bytes.length).writeBytes(bytes));
  }

  private static long nanos(double seconds) {
    return Math.round(seconds * 1e9);
  }
}
