package io.sluice.http;

import static org.awaitility.Awaitility.await;

import io.sluice.core.ProcessingStrategy;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.Processor;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.function.UnaryOperator;

/** An application with one flow behind an HTTP listener on an ephemeral port of 127.0.0.1. */
final class Listening implements AutoCloseable {

  final Application app;
  final HttpListenerSource listener;
  final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private Listening(Application app, HttpListenerSource listener) {
    this.app = app;
    this.listener = listener;
  }

  /** An application already started with {@code listener} as a flow's source. */
  static Listening of(Application app, HttpListenerSource listener) {
    return new Listening(app, listener);
  }

  static HttpServerConfig.Builder server() {
    return HttpServerConfig.builder(0).host("127.0.0.1");
  }

  /** Starts a flow {@code http} listening on {@code path}, its processors added by {@code flow}. */
  static Listening start(
      HttpServerConfig config,
      String path,
      ProcessingStrategy strategy,
      UnaryOperator<Flow.Builder> flow) {
    HttpListenerSource listener = new HttpListenerSource(config, path, Set.of());
    Flow built = flow.apply(Flow.builder("web").strategy(strategy).source(listener)).build();
    Application app =
        Application.builder().flow(built).shutdownTimeout(Duration.ofSeconds(10)).build();
    app.start();
    return of(app, listener);
  }

  static Listening start(String path, Processor... processors) {
    return start(
        server().build(),
        path,
        ProcessingStrategy.defaultStrategy(),
        f -> {
          for (Processor p : processors) {
            f.processor(p);
          }
          return f;
        });
  }

  URI uri(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + listener.port() + pathAndQuery);
  }

  HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
    return client.send(
        HttpRequest.newBuilder(uri(pathAndQuery)).build(), HttpResponse.BodyHandlers.ofString());
  }

  RawClient raw() throws IOException {
    return new RawClient(listener.port());
  }

  double refused(String reason) {
    var counter = app.meterRegistry().find("sluice.http.refused").tag("reason", reason).counter();
    return counter == null ? 0 : counter.count();
  }

  double connections() {
    return app.meterRegistry().get("sluice.http.connections").gauge().value();
  }

  @Override
  public void close() {
    app.stop();
    listener.terminated().orTimeout(15, java.util.concurrent.TimeUnit.SECONDS).join();
    client.close();
    // Every server and requester of the test gave the engine back: its event loops end.
    await()
        .atMost(Duration.ofSeconds(5))
        .until(
            () ->
                Thread.getAllStackTraces().keySet().stream()
                    .noneMatch(t -> t.isAlive() && t.getName().startsWith("sluice-http-")));
  }
}
