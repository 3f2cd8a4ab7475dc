package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/order-router.yaml as a user runs it: orders posted as JSON are routed by country, their
 * lines reserved one call each, priced and shipped by a scatter-gather, answered in JSON and
 * written out through the persistent queue; a document that is not JSON is answered 400.
 */
@Tag("crash") // starts a Sluice process: not in the fast suite
class OrderRouterExampleRunsAsAProcessTest {

  @TempDir Path work;

  private final HttpClient http = HttpClient.newHttpClient();

  private HttpResponse<String> post(String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:8096/orders"))
            .header("content-type", "application/json")
            .timeout(Duration.ofSeconds(20))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void ordersAreRoutedPricedAndWrittenOut() throws Exception {
    Files.copy(Path.of("../examples/order-router.yaml"), work.resolve("order-router.yaml"));
    try (SluiceProcess sluice = SluiceProcess.start(work, "run", "order-router.yaml")) {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> sluice.log().contains("is running") || !sluice.isAlive());
      assertThat(sluice.isAlive()).as("log:%n%s", sluice.log()).isTrue();

      HttpResponse<String> france =
          post(
              "{\"id\": 42, \"country\": \"FR\", \"lines\": [{\"sku\": \"A-1\", \"qty\": 2},"
                  + " {\"sku\": \"B-7\", \"qty\": 1}, {\"sku\": \"C-3\", \"qty\": 5}]}");
      HttpResponse<String> usa =
          post("{\"id\": 43, \"country\": \"US\", \"lines\": [{\"sku\": \"A-1\", \"qty\": 1}]}");
      HttpResponse<String> broken = post("{\"id\": 44, \"country\"");

      assertThat(france.statusCode()).as(france.body()).isEqualTo(200);
      assertThat(france.body())
          .isEqualTo(
              "{\"id\":42,\"country\":\"FR\",\"warehouse\":\"eu-central\",\"unitsReserved\":3,"
                  + "\"total\":28.5,\"carrier\":\"dhl\"}");
      assertThat(usa.body())
          .isEqualTo(
              "{\"id\":43,\"country\":\"US\",\"warehouse\":\"us-east\",\"unitsReserved\":1,"
                  + "\"total\":9.5,\"carrier\":\"ups\"}");
      assertThat(broken.statusCode()).isEqualTo(400);
      assertThat(broken.body()).startsWith("not an order: ").contains("line 1, column");
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> Files.exists(work.resolve("out/order-43.json")));
      assertThat(work.resolve("out/order-42.json")).hasContent(france.body());
      sluice.terminate();
      assertThat(sluice.awaitExit(60)).as("exit code; log:%n%s", sluice.log()).isZero();
    }
  }
}
