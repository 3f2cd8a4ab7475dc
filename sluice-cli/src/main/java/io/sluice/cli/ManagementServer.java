package io.sluice.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.batch.BatchInstances;
import io.sluice.config.Secrets;
import io.sluice.core.SluiceException;
import io.sluice.core.app.Operations;
import io.sluice.core.health.HealthCheck;
import io.sluice.core.health.HealthContributor;
import io.sluice.core.health.Readiness;
import io.sluice.jobs.spi.JobStore;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The management endpoint of {@code sluice run}: {@code GET /metrics} in the Prometheus text
 * format, {@code GET /health}, the API under {@code /api/} ({@link ManagementApi}) and the
 * console's page at {@code /} ({@link ConsolePage}). A small JDK HTTP server on its own port, so it
 * answers even when the flows are saturated. With a token ({@link ManagementAccess}) every path but
 * {@code /health} (which says only UP, for load balancers that probe without credentials) answers
 * 401 to a request without {@code Authorization: Bearer TOKEN}. A secret value ({@link Secrets}) in
 * a tag is served masked.
 */
final class ManagementServer implements AutoCloseable {

  private final HttpServer server;
  private final PrometheusMeterRegistry registry;
  private final ManagementAccess access;
  private final JvmGcMetrics gc;
  private final ManagementApi api;
  private volatile Readiness readiness;

  private ManagementServer(
      HttpServer server, PrometheusMeterRegistry registry, ManagementAccess access) {
    this.server = server;
    this.registry = registry;
    this.access = access;
    this.gc = bindProcessMeters(registry);
    this.api = new ManagementApi(access);
  }

  /**
   * The meters of the JVM and the process that operators expect beside the application's: memory
   * pools and buffers, garbage collections, threads, loaded classes, CPU (the process's and the
   * machine's), open file descriptors, uptime, and {@code sluice_build_info} whose tags say the
   * version of Sluice and of the JVM. The collector's meters listen to GC notifications until
   * {@link #close}.
   */
  private static JvmGcMetrics bindProcessMeters(MeterRegistry registry) {
    new JvmMemoryMetrics().bindTo(registry);
    JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new JvmInfoMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    Gauge.builder("sluice.build.info", () -> 1)
        .description("Always 1; its tags say which Sluice and which JVM run")
        .tag("version", version())
        .tag("java", Runtime.version().toString())
        .register(registry);
    return gc;
  }

  /** A registry for the application's meters, to be served once {@link #start} is called. */
  static PrometheusMeterRegistry registry() {
    return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  }

  /**
   * Serves {@code registry} on {@code host:port} to the requests {@code access} admits; fails
   * clearly when the port is taken.
   */
  static ManagementServer start(
      String host, int port, PrometheusMeterRegistry registry, ManagementAccess access) {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(host, port), 16);
    } catch (BindException e) {
      throw new SluiceException(
          "Management port "
              + port
              + " on "
              + host
              + " is already in use. "
              + "Make sure no other process is using it, or choose another with --management-port.");
    } catch (IOException e) {
      throw new SluiceException(
          "Could not open the management port " + host + ":" + port + ": " + e);
    }
    ManagementServer management = new ManagementServer(server, registry, access);
    server.createContext("/metrics", management::metrics);
    server.createContext("/", ConsolePage::handle);
    server.createContext("/health", management::health);
    server.createContext("/api/", management.api::handle);
    server.setExecutor(boundedThreads());
    server.start();
    return management;
  }

  /**
   * From now on {@code /health/ready} asks {@code contributors} (until then it answers 503,
   * starting): at most once a second, each within {@link #HEALTH_DEADLINE}.
   */
  void ready(List<HealthContributor> contributors) {
    ready(contributors, null);
  }

  /** As {@link #ready(List)}, the API ({@code /api/}) working on {@code operations} too. */
  void ready(List<HealthContributor> contributors, Operations operations) {
    ready(contributors, operations, null, null);
  }

  /**
   * As {@link #ready(List, Operations)}, the API's jobs on {@code jobs} and its batch instances
   * those {@code batches} opens (either null when the store keeps none).
   */
  void ready(
      List<HealthContributor> contributors,
      Operations operations,
      JobStore jobs,
      Supplier<BatchInstances> batches) {
    if (operations != null) {
      api.operations(operations, new JobsApi(jobs), new BatchApi(batches));
    }
    readiness =
        new Readiness(
            () -> contributors, HEALTH_DEADLINE, Duration.ofSeconds(1), Clock.systemUTC());
  }

  /** How long a readiness check may take before its part counts as down. */
  static final Duration HEALTH_DEADLINE = Duration.ofSeconds(3);

  /**
   * {@code /health/live}: the process answers and no thread is deadlocked; {@code /health/ready}:
   * every part can do its job; {@code /health}: both. 200 when up, 503 when not, with a JSON body:
   * {@code {"status": "UP", "checks": [{"component", "status", "detail"}]}}. Open to probes without
   * the token; without it the details (paths, errors) are left out.
   */
  private void health(HttpExchange exchange) throws IOException {
    if (!"GET".equals(exchange.getRequestMethod())) {
      exchange.getResponseHeaders().add("Allow", "GET");
      reply(exchange, 405, "text/plain", "Only GET is supported\n");
      return;
    }
    String path = exchange.getRequestURI().getPath();
    List<HealthCheck> checks = new ArrayList<>();
    switch (path) {
      case "/health/live", "/health/live/" -> checks.addAll(liveness());
      case "/health/ready", "/health/ready/" -> checks.addAll(readiness());
      case "/health", "/health/" -> {
        checks.addAll(liveness());
        checks.addAll(readiness());
      }
      default -> {
        reply(exchange, 404, "text/plain", "Not found; try /health/live or /health/ready\n");
        return;
      }
    }
    boolean detailed =
        access.required() && access.admits(exchange.getRequestHeaders().getFirst("Authorization"));
    boolean up = Readiness.allUp(checks);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", up ? "UP" : "DOWN");
    List<Map<String, Object>> shown = new ArrayList<>();
    for (HealthCheck check : checks) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("component", check.component());
      one.put("status", check.up() ? "UP" : "DOWN");
      if (detailed || !access.required()) {
        one.put("detail", check.detail());
      }
      shown.add(one);
    }
    body.put("checks", shown);
    reply(
        exchange,
        up ? 200 : 503,
        "application/json",
        Secrets.mask(JSON.writeValueAsString(body)) + "\n");
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private static List<HealthCheck> liveness() {
    long[] deadlocked = ManagementFactory.getThreadMXBean().findDeadlockedThreads();
    return List.of(
        deadlocked == null
            ? HealthCheck.up("threads", "no deadlock")
            : HealthCheck.down("threads", deadlocked.length + " thread(s) deadlocked"));
  }

  private List<HealthCheck> readiness() {
    Readiness current = readiness;
    return current == null
        ? List.of(HealthCheck.down("application", "starting"))
        : current.checks();
  }

  /** Requests served at once; more wait in {@link #QUEUED}, beyond that they are turned away. */
  static final int THREADS = 4;

  /** Requests waiting for one of the {@link #THREADS}. */
  static final int QUEUED = 64;

  /**
   * The port's own few threads, apart from the flows': a client that sends slowly, or floods the
   * port, holds at most these (a request beyond the queue has its connection closed), never a
   * flow's thread nor an unbounded number of virtual threads each rendering a scrape.
   */
  private static ExecutorService boundedThreads() {
    AtomicInteger made = new AtomicInteger();
    ThreadPoolExecutor threads =
        new ThreadPoolExecutor(
            THREADS,
            THREADS,
            30,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(QUEUED),
            task -> {
              Thread thread = new Thread(task, "sluice-management-" + made.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            },
            new ThreadPoolExecutor.AbortPolicy());
    threads.allowCoreThreadTimeOut(true);
    return threads;
  }

  /** The port it listens on (useful when 0 was asked for). */
  int port() {
    return server.getAddress().getPort();
  }

  private void metrics(HttpExchange exchange) throws IOException {
    if (!access.admits(exchange.getRequestHeaders().getFirst("Authorization"))) {
      exchange.getResponseHeaders().add("WWW-Authenticate", "Bearer realm=\"sluice\"");
      reply(exchange, 401, "text/plain", "A bearer token is required\n");
      return;
    }
    if (!"GET".equals(exchange.getRequestMethod())) {
      exchange.getResponseHeaders().add("Allow", "GET");
      reply(exchange, 405, "text/plain", "Only GET is supported\n");
      return;
    }
    // OpenMetrics for a scraper that asks for it (Prometheus does, for exemplars and _created);
    // the classic text format otherwise, which every scraper reads.
    String accept = exchange.getRequestHeaders().getFirst("Accept");
    String type =
        accept != null && accept.contains("application/openmetrics-text")
            ? OPENMETRICS
            : "text/plain; version=0.0.4; charset=utf-8";
    // A tag may hold a secret value (a flow named by a ${secret:...}, a URL): never served.
    reply(exchange, 200, type, Secrets.mask(registry.scrape(type)));
  }

  /** Answers {@code status} with {@code body} as {@code type}. */
  static void reply(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static String version() {
    try {
      return VersionProvider.version();
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static final String OPENMETRICS =
      "application/openmetrics-text; version=1.0.0; charset=utf-8";

  @Override
  public void close() {
    server.stop(0);
    if (server.getExecutor() instanceof ExecutorService threads) {
      threads.shutdownNow();
    }
    gc.close();
  }
}
