package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The console end to end in a real headless Chromium (Debian's, installed by {@code
 * bin/install-browser}) against a real {@code sluice run}: the page asks for the token, shows a
 * flow's count rising without a reload, its Retry button runs a real incident, its history finds
 * the completed job by its payload, "Retry all" of a type runs the other incident, a dead letter is
 * inspected and requeued, a batch instance's failed records are shown with their line numbers, and
 * the instance is stopped and resumed to its end. Skipped with a message where no chromium is
 * installed, except under {@code CI=true}, where it fails. It leaves {@code target/console.png},
 * the screenshot README shows (copied to docs/ by hand).
 */
@Tag("browser")
class TheConsoleShowsALiveApplicationInABrowserTest {

  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final String TOKEN = "0123456789abcdef-browser-token";
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path work;

  private static boolean browserInstalled() {
    return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
  }

  private final HttpClient client = HttpClient.newHttpClient();

  @Test
  void thePageShowsAFlowsCountRisingAndActsOnARealIncidentDeadLetterAndBatch() throws Exception {
    boolean installed = browserInstalled();
    if (!installed) {
      // The project's own set-up installs it (as root; elsewhere it says what is missing).
      Process install =
          new ProcessBuilder("../bin/install-browser")
              .redirectErrorStream(true)
              .redirectOutput(work.resolve("install-browser.log").toFile())
              .start();
      if (install.waitFor(10, java.util.concurrent.TimeUnit.MINUTES)) {
        installed = browserInstalled();
      } else {
        install.destroyForcibly();
      }
    }
    String missing =
        "no "
            + CHROMIUM
            + " and "
            + CHROMEDRIVER
            + " after bin/install-browser, which installs Debian's chromium and chromium-driver"
            + " as root; its output: "
            + work.resolve("install-browser.log");
    if (!"true".equalsIgnoreCase(System.getenv("CI"))) {
      Assumptions.assumeTrue(installed, missing);
    }
    assertThat(installed).as(missing).isTrue();

    Files.writeString(
        work.resolve("console.yaml"),
        FailsTheFirstRunOfEachPayload.SEND_ORDER_JOBS
            + """
          - name: tick
            source:
              scheduler: { frequency: 100ms }
            processors:
              - expression: { expression: "'tick'" }
          - name: take-order
            source:
              scheduler: { frequency: 1h, startDelay: 0s }
            processors:
              - set-payload: { value: "order-42" }
              - vm-publish: { queue: orders, persistent: true }
          - name: fulfil
            source:
              vm-listener: { queue: orders, persistent: true, maxDeliveries: 1 }
            processors:
              - component: { class: io.sluice.cli.FailsTheFirstRunOfEachPayload }
          - name: nightly
            source:
              scheduler: { frequency: 1h, startDelay: 0s }
            processors:
              - batch-execute: { job: import-orders }
        batch:
          - name: import-orders
            input: { csv: orders.csv }
            blockSize: 50
            threads: 2
            maxFailedRecords: -1
            steps:
              - name: load
                processors:
                  - component: { class: io.sluice.cli.WaitsWhileHeld }
        """);
    // 1,000 orders, every 400th without its amount: lines 401 and 801 are bad. The step holds
    // every record until the test lets it go.
    StringBuilder orders = new StringBuilder("id,amount\n");
    for (int i = 1; i <= 1_000; i++) {
      orders.append(i % 400 == 0 ? i + "\n" : i + ",1\n");
    }
    Files.writeString(work.resolve("orders.csv"), orders);
    Path hold = Files.createFile(work.resolve(WaitsWhileHeld.HOLD));
    for (String order : List.of("order-17", "order-18")) {
      CliRun created =
          CliRun.of(
              "jobs",
              "create",
              work.resolve("console.yaml").toString(),
              "--type",
              "send-order",
              "--payload",
              order,
              "--retries",
              "0");
      assertThat(created.exitCode()).as(created.err()).isZero();
    }

    try (SluiceProcess sluice =
        SluiceProcess.start(
            work,
            Map.of(ManagementAccess.TOKEN_VARIABLE, TOKEN),
            "run",
            "console.yaml",
            "--management-port",
            "0")) {
      String base = await().atMost(WAIT).until(() -> address(sluice), a -> a != null);
      JsonNode incidents =
          await()
              .atMost(WAIT)
              .until(() -> api(base, "/api/jobs").get("incidents"), found -> found.size() == 2);
      long incident = incidents.get(0).get("id").asLong(); // order-17, created first
      long other = incidents.get(1).get("id").asLong();

      WebDriver browser = browser();
      try {
        browser.manage().window().setSize(new Dimension(1400, 1750));
        browser.get(base + "/");
        WebElement token =
            await().atMost(WAIT).until(() -> visible(browser, "token"), e -> e != null);
        token.sendKeys(TOKEN);
        browser.findElement(By.cssSelector("#token-form button")).click();

        long first = await().atMost(WAIT).until(() -> completed(browser), c -> c != null && c > 0);
        await()
            .atMost(WAIT)
            .alias("the tick flow's completed count rises on the page without a reload")
            .until(() -> completed(browser), c -> c != null && c > first);
        assertThat(browser.findElement(By.id("token-form")).isDisplayed())
            .as("the token form, once used")
            .isFalse();
        assertThat(browser.findElement(By.id("banner")).isDisplayed()).as("no outage").isFalse();
        By retry = By.cssSelector("tr[data-job='" + incident + "'] button.retry");
        await().atMost(WAIT).until(() -> find(browser, retry) != null);
        assertThat(
                browser
                    .findElement(By.cssSelector("tr[data-job='" + incident + "'] td.error"))
                    .getText())
            .as("an error is shown as text, not markup")
            .contains("<b>not markup</b>");
        By batchStop = By.cssSelector("#batch tr[data-instance] button.danger");
        await()
            .atMost(WAIT)
            .alias("the batch instance runs")
            .until(() -> find(browser, batchStop) != null);
        click(browser, By.cssSelector("#batch tr[data-instance] button.failures"));
        By failed = By.cssSelector("#batch-failures tr[data-position] td:first-child");
        await()
            .atMost(WAIT)
            .alias("the bad lines' failed records are shown with their line numbers")
            .ignoreExceptions()
            .until(
                () -> browser.findElements(failed).stream().map(WebElement::getText).toList(),
                lines -> lines.equals(List.of("401", "801")));
        assertThat(
                browser
                    .findElement(By.cssSelector("#batch-failures tr[data-position='401'] td.error"))
                    .getText())
            .isEqualTo("line 401 has 1 field(s), the header names 2");

        By queue = By.cssSelector("tr[data-queue] button");
        await().atMost(WAIT).until(() -> find(browser, queue) != null);
        click(browser, queue);
        By requeue = By.cssSelector("#dead-letters tr[data-dead-letter] button");
        await()
            .atMost(WAIT)
            .alias("the dead letter is shown")
            .until(() -> find(browser, requeue) != null);
        assertThat(browser.findElement(By.cssSelector("#dead-letters td.payload")).getText())
            .isEqualTo("order-42");
        Path shot = ((ChromeDriver) browser).getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, Path.of("target", "console.png"), StandardCopyOption.REPLACE_EXISTING);

        click(browser, retry);
        await()
            .atMost(WAIT)
            .alias("the incident leaves the page")
            .until(() -> find(browser, retry) == null);
        await()
            .atMost(WAIT)
            .alias("the retried job ran")
            .until(() -> Files.exists(work.resolve("ran-order-17")));
        await()
            .atMost(WAIT)
            .alias("and completed: the store has it no longer")
            .until(() -> status(base, "/api/jobs/" + incident) == 404);
        assertThat(browser.findElement(By.id("status")).getText()).contains("waits again");

        browser.findElement(By.id("history-search")).sendKeys("order-17");
        await()
            .atMost(WAIT)
            .alias("a search on its payload finds the completed job in the history")
            .ignoreExceptions()
            .until(
                () ->
                    browser.findElements(By.cssSelector("#jobs-history tr[data-entry]")).stream()
                        .map(
                            r ->
                                r.getAttribute("data-state")
                                    + " "
                                    + r.findElement(By.cssSelector("td.payload")).getText())
                        .toList(),
                entries -> entries.equals(List.of("completed order-17", "failed order-17")));
        click(browser, By.cssSelector("#jobs-retry-all button[data-type='send-order']"));
        await()
            .atMost(WAIT)
            .ignoreExceptions()
            .until(
                () -> {
                  browser.switchTo().alert().accept(); // the page's confirm()
                  return true;
                });
        await()
            .atMost(WAIT)
            .alias("Retry all of send-order ran the other incident")
            .until(() -> Files.exists(work.resolve("ran-order-18")));
        await()
            .atMost(WAIT)
            .alias("which completed, as its store says")
            .until(
                () ->
                    status(base, "/api/jobs/" + other) == 404
                        && api(base, "/api/jobs/history?state=completed&q=order-18")
                                .get("count")
                                .asInt()
                            == 1);
        assertThat(browser.findElement(By.id("status")).getText())
            .contains("1 incident(s) of type 'send-order' wait again");

        click(browser, requeue);
        await()
            .atMost(WAIT)
            .alias("the requeued dead letter is taken again, and handled")
            .until(() -> Files.exists(work.resolve("ran-order-42")));
        await()
            .atMost(WAIT)
            .until(() -> api(base, "/api/queues").get(0).get("deadLetters").asLong() == 0);

        long instance = api(base, "/api/batch").get(0).get("id").asLong();
        click(browser, batchStop);
        await()
            .atMost(WAIT)
            .until(() -> api(base, "/api/batch/" + instance).get("stopRequested").asBoolean());
        Files.delete(hold); // the blocks in flight finish their step, no other block starts
        await()
            .atMost(WAIT)
            .alias("the batch instance stops")
            .until(
                () -> api(base, "/api/batch/" + instance).get("state").asText().equals("STOPPED"));
        await()
            .atMost(WAIT)
            .alias("and the page says so")
            .ignoreExceptions()
            .until(
                () ->
                    find(browser, By.cssSelector("#batch tr[data-instance='" + instance + "']"))
                        .getText()
                        .contains("STOPPED"));

        click(browser, By.cssSelector("#batch tr[data-instance='" + instance + "'] button.resume"));
        await()
            .atMost(WAIT)
            .alias("the resumed instance runs to its end, as its store says")
            .until(() -> storedState(instance), "COMPLETED"::equals);
        assertThat(browser.findElement(By.id("status")).getText())
            .contains("resumed instance " + instance);
      } finally {
        browser.quit();
      }
    }
  }

  /** The state of batch instance {@code id} as {@code sluice batch list} reads it in the store. */
  private String storedState(long id) throws Exception {
    CliRun list =
        CliRun.of("batch", "list", work.resolve("console.yaml").toString(), "--output", "json");
    assertThat(list.exitCode()).as(list.err()).isZero();
    for (JsonNode one : new ObjectMapper().readTree(list.out()).get("instances")) {
      if (one.get("id").asLong() == id) {
        return one.get("state").asText();
      }
    }
    return null;
  }

  /** Chromium through Debian's chromedriver: nothing downloaded, no profile of the user's. */
  private WebDriver browser() throws Exception {
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        "--user-data-dir=" + Files.createDirectories(work.resolve("chromium-profile")));
    return new ChromeDriver(service, options);
  }

  /** Clicks what {@code by} finds, again if a redraw replaced it under the click. */
  private static void click(WebDriver browser, By by) {
    await()
        .atMost(WAIT)
        .ignoreExceptions()
        .until(
            () -> {
              browser.findElement(by).click();
              return true;
            });
  }

  private static WebElement visible(WebDriver browser, String id) {
    WebElement element = browser.findElement(By.id(id));
    return element.isDisplayed() ? element : null;
  }

  private static WebElement find(WebDriver browser, By by) {
    return browser.findElements(by).stream().findFirst().orElse(null);
  }

  /** The tick flow's completed count as the page shows it; null before it shows one. */
  private static Long completed(WebDriver browser) {
    WebElement cell = find(browser, By.cssSelector("tr[data-flow='tick'] td.completed"));
    if (cell == null) {
      return null;
    }
    String text;
    try {
      text = cell.getText().replace(",", "");
    } catch (StaleElementReferenceException redrawn) {
      return null; // the page redrew the row between the find and the read: read it again
    }
    return text.matches("\\d+") ? Long.parseLong(text) : null;
  }

  private static String address(SluiceProcess sluice) throws Exception {
    Matcher metrics = Pattern.compile("Metrics at (http://[^ ]+)/metrics").matcher(sluice.log());
    return metrics.find() ? metrics.group(1) : null;
  }

  private int status(String base, String path) throws Exception {
    return client
        .send(
            HttpRequest.newBuilder(URI.create(base + path))
                .header("Authorization", "Bearer " + TOKEN)
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .statusCode();
  }

  private JsonNode api(String base, String path) throws Exception {
    HttpResponse<String> response =
        client.send(
            HttpRequest.newBuilder(URI.create(base + path))
                .header("Authorization", "Bearer " + TOKEN)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return new ObjectMapper().readTree(response.body());
  }
}
