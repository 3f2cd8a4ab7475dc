package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What an operator's scrape of /metrics finds beside the application's own meters. */
class MetricsHaveTheJvmAndTheProcessTest {

  private static HttpResponse<String> scrape(int port, String accept) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"));
    if (accept != null) {
      request.header("Accept", accept);
    }
    try (HttpClient client = HttpClient.newHttpClient()) {
      return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
  }

  @Test
  void aScrapeHoldsMemoryGcThreadsCpuFilesUptimeAndTheBuild() throws Exception {
    PrometheusMeterRegistry registry = ManagementServer.registry();
    try (ManagementServer server =
        ManagementServer.start("127.0.0.1", 0, registry, ManagementAccess.OPEN)) {
      // A collection is counted when the JVM's notification of it arrives, a moment after.
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () -> {
                System.gc();
                return scrape(server.port(), null).body().contains("jvm_gc_pause_seconds_count");
              });
      HttpResponse<String> classic = scrape(server.port(), null);
      assertThat(classic.statusCode()).isEqualTo(200);
      assertThat(classic.headers().firstValue("Content-Type"))
          .hasValue("text/plain; version=0.0.4; charset=utf-8");
      assertThat(classic.body())
          .contains("jvm_memory_used_bytes{area=\"heap\"")
          .contains("jvm_gc_pause_seconds_count")
          .contains("jvm_threads_live_threads")
          .contains("jvm_classes_loaded_classes")
          .contains("process_cpu_usage")
          .contains("system_cpu_count")
          .contains("process_files_open_files")
          .contains("process_uptime_seconds")
          .contains("jvm_info{")
          .containsPattern(
              "sluice_build_info\\{java=\""
                  + Runtime.version().feature()
                  + "[^\"]*\",version=\"0\\.");

      HttpResponse<String> openMetrics =
          scrape(server.port(), "application/openmetrics-text; version=1.0.0,text/plain;q=0.5");
      assertThat(openMetrics.headers().firstValue("Content-Type"))
          .hasValue("application/openmetrics-text; version=1.0.0; charset=utf-8");
      assertThat(openMetrics.body()).contains("process_uptime_seconds").endsWith("# EOF\n");
    }
  }
}
