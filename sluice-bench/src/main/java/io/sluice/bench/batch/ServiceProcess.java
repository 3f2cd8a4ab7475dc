package io.sluice.bench.batch;

import io.sluice.bench.http.HttpTargetServer;
import io.sluice.testkit.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * E1's downstream service in a JVM of its own ({@link HttpTargetServer} with the bare Netty target,
 * on 127.0.0.1), so its CPU is counted apart from the batch's; stopped by closing its stdin.
 */
final class ServiceProcess implements AutoCloseable {

  /** The service's counters since it started (see {@code ServiceEndpoints}). */
  record Counts(long latencyCalls, long cappedCalls, long capped429) {
    static final Counts NONE = new Counts(0, 0, 0);

    /** What happened between {@code earlier} and these. */
    Counts since(Counts earlier) {
      return new Counts(
          latencyCalls - earlier.latencyCalls,
          cappedCalls - earlier.cappedCalls,
          capped429 - earlier.capped429);
    }
  }

  private final Process process;
  private final int port;
  private final HttpClient http = HttpClient.newHttpClient();

  private ServiceProcess(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /**
   * Starts the service: answers after {@code latencyMillis}, {@code /capped} {@code cap} at once.
   */
  static ServiceProcess start(double latencyMillis, int cap) throws IOException {
    List<String> command =
        ChildJvm.command(
            HttpTargetServer.class,
            "--target",
            "netty",
            "--latency-ms",
            Double.toString(latencyMillis),
            "--cap",
            Integer.toString(cap));
    Process process =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    if (line == null || !line.startsWith("port ")) {
      process.destroyForcibly();
      throw new IOException("the service did not start (it printed " + line + "): " + command);
    }
    return new ServiceProcess(process, Integer.parseInt(line.substring(5).trim()));
  }

  int port() {
    return port;
  }

  long pid() {
    return process.pid();
  }

  /** Its counters now. */
  Counts counts() throws IOException, InterruptedException {
    Map<String, String> values = values();
    return new Counts(
        Long.parseLong(values.get("latency_calls")),
        Long.parseLong(values.get("capped_calls")),
        Long.parseLong(values.get("capped_429")));
  }

  /**
   * The {@code /latency} calls in flight now, and the most at once since the last call of this
   * method (or of {@link #counts}): read every so often, the peak of each interval.
   */
  record InFlight(long now, long peak) {}

  /** The {@code /latency} calls in flight. */
  InFlight inFlight() throws IOException, InterruptedException {
    Map<String, String> values = values();
    return new InFlight(
        Long.parseLong(values.get("latency_in_flight")),
        Long.parseLong(values.get("latency_in_flight_peak")));
  }

  private Map<String, String> values() throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/counts"))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    Map<String, String> values = new HashMap<>();
    for (String line : response.body().split("\n")) {
      String[] pair = line.split(" ", 2);
      if (pair.length == 2) {
        values.put(pair[0], pair[1]);
      }
    }
    return values;
  }

  /** Closes its stdin and waits for it to end (20 s, then it is killed). */
  @Override
  public void close() throws IOException, InterruptedException {
    process.getOutputStream().close();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
    http.close();
  }
}
