package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The meter tables of the docs say which tags each meter has, and a real scrape agrees: a {@code
 * sluice run} whose flows serve HTTP (and refuse a path no route takes), call HTTP, route, publish
 * to a durable and an in-memory queue, take from them, run a job, read a file, poll a database and
 * write to it in a transaction, fire a scheduler, retry until giving up and aggregate is scraped,
 * and every {@code sluice_} family in the scrape must have its row in docs/architecture.md or
 * docs/configuration.md whose tags column names exactly the labels the scrape shows (a histogram's
 * {@code le} aside). {@link EveryMeterIsDocumentedTest} finds the names in the code; this finds the
 * tags on the wire, where a renamed or added tag would show. Not made here, so checked by name
 * only: {@code sluice.http.tls.reloads}, {@code sluice.router.timeouts} and the batch step's timer.
 */
class TheMeterDocsMatchAScrapeTest {

  private static final Path ROOT = Path.of("..");

  /** What a meter's Prometheus families add to its name, by kind. */
  private static final List<String> SUFFIXES =
      List.of(
          "",
          "_total",
          "_seconds",
          "_seconds_count",
          "_seconds_sum",
          "_seconds_max",
          "_seconds_bucket",
          "_count",
          "_sum",
          "_max",
          "_bucket");

  /** The families this run must produce, so the comparison cannot pass on an empty scrape. */
  private static final Set<String> EXPECTED =
      Set.of(
          "sluice.flow.messages",
          "sluice.flow.duration",
          "sluice.flow.inflight",
          "sluice.stage.limit",
          "sluice.http.server.requests",
          "sluice.http.client.requests",
          "sluice.http.responses",
          "sluice.router.routes",
          "sluice.queue.depth",
          "sluice.queue.outcomes",
          "sluice.store.commits",
          "sluice.jobs.run",
          "sluice.jobs.wait",
          "sluice.jobs.executed",
          "sluice.file.read",
          "sluice.vm.queued",
          "sluice.stage.threads",
          "sluice.db.poll.polls",
          "sluice.db.transactions",
          "sluice.scheduler.skipped",
          "sluice.router.retries",
          "sluice.router.exhausted",
          "sluice.router.groups",
          "sluice.http.refused",
          "sluice.build.info");

  @TempDir Path work;

  @Test
  void everySluiceFamilyOfAScrapeHasTheTagsItsRowNames() throws Exception {
    int port = freePort();
    Path config = work.resolve("app.yaml");
    Files.writeString(config, configuration(port));
    Files.createDirectories(work.resolve("in"));
    Files.writeString(work.resolve("in/note.txt"), "a note");
    CliRun created =
        CliRun.of("jobs", "create", config.toString(), "--type", "tally", "--payload", "one");
    assertThat(created.exitCode()).as(created.err()).isZero();
    Map<String, Set<String>> documented = documentedTags();

    try (SluiceProcess sluice =
            SluiceProcess.start(work, "run", "app.yaml", "--management-port", "0");
        HttpClient client = HttpClient.newHttpClient()) {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> !sluice.isAlive() || sluice.log().contains("Metrics at "));
      assertThat(sluice.isAlive()).as("still running; log:%n%s", sluice.log()).isTrue();
      for (String n : List.of("1", "2", "3")) {
        HttpResponse<String> answer =
            client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/in/" + n)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
      }
      HttpResponse<String> nowhere =
          client.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/nowhere")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(nowhere.statusCode()).isEqualTo(404);
      Map<String, Set<String>> scraped = new TreeMap<>();
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                scraped.clear();
                scraped.putAll(
                    families(FileCopyExampleRunsAsAProcessTest.scrape(sluice), documented));
                assertThat(scraped.keySet()).as("meters in the scrape").containsAll(EXPECTED);
              });

      Map<String, String> disagreements = new TreeMap<>();
      scraped.forEach(
          (meter, labels) -> {
            Set<String> doc = documented.get(meter);
            if (doc == null) {
              disagreements.put(meter, "scraped with " + labels + ", not in the docs' tables");
            } else if (!doc.equals(labels)) {
              disagreements.put(meter, "scraped with " + labels + ", documented with " + doc);
            }
          });
      assertThat(disagreements).as("meters whose tags the docs misstate").isEmpty();
    }
  }

  private static String configuration(int port) {
    return """
        sluice:
          store:
            dataDir: data
          jobs:
            concurrency: 2
            handlers:
              tally: { flow: tally }
        flows:
          - name: front
            source:
              http-listener: { host: 127.0.0.1, port: PORT, path: "/in/{n}", methods: [GET] }
            processors:
              - choice:
                  name: pick
                  when:
                    - expression: "attributes.pathParams.n == '1'"
                      processors:
                        - set-variable: { name: which, value: first }
                  otherwise:
                    - set-variable: { name: which, value: later }
              - http-request: { url: "http://127.0.0.1:PORT/echo" }
              - vm-publish: { queue: work, persistent: true }
          - name: echo
            source:
              http-listener: { host: 127.0.0.1, port: PORT, path: /echo, methods: [GET] }
            processors:
              - set-payload: { value: echoed }
          - name: worker
            source:
              vm-listener: { queue: work, persistent: true }
            processors:
              - logger: { message: "worked on #[payload]" }
          - name: tally
            processors:
              - logger: { message: "job #[payload]" }
          - name: files
            strategy:
              synchronous:
                receiver: { maxThreadsActive: 1, maxQueue: 0, exhaustedAction: DISCARD }
            source:
              file: { directory: in, pattern: "*.txt", afterRead: DELETE }
            processors:
              - vm-publish: { queue: notes }
          - name: notes
            source:
              vm-listener: { queue: notes }
            processors:
              - logger: { message: "note #[payload]" }
          - name: orders
            source:
              db-poll:
                dataSource: shop
                sql: SELECT id, item FROM orders WHERE id > :watermark ORDER BY id
                watermarkColumn: id
                initialWatermark: 0
                frequency: 1s
            processors:
              - try:
                  transaction: shop
                  processors:
                    - db-insert:
                        dataSource: shop
                        sql: INSERT INTO shipped (order_id) VALUES (:id) ON CONFLICT (order_id) DO NOTHING
                        parameters: { id: "#[payload.id]" }
          - name: tick
            source:
              scheduler: { frequency: 1s }
            processors:
              - try:
                  processors:
                    - until-successful:
                        name: never
                        maxRetries: 1
                        delay: 10ms
                        processors:
                          - expression: { expression: "payload.noSuchMethod()" }
                  errorHandler:
                    - onErrorContinue:
                        processors:
                          - logger: { message: "gave up: #[error.message]" }
              - aggregate: { name: ticks, correlation: "'ticks'", size: "1" }
        dataSources:
          - name: shop
            url: jdbc:sqlite:shop.db
            pool: { maxSize: 1, minIdle: 1 }
            initSql:
              - CREATE TABLE IF NOT EXISTS orders (id integer primary key, item text not null)
              - CREATE TABLE IF NOT EXISTS shipped (order_id integer primary key)
              - INSERT INTO orders (id, item) VALUES (1, 'tea') ON CONFLICT (id) DO NOTHING
        """
        .replace("PORT", Integer.toString(port));
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /**
   * The {@code sluice_} families of a Prometheus text scrape, each under the documented meter it
   * belongs to (its name without the suffix its kind adds), with the labels its samples carry.
   */
  private static Map<String, Set<String>> families(
      String scrape, Map<String, Set<String>> documented) {
    Pattern sample = Pattern.compile("^(sluice_[a-z0-9_]+)(\\{([^}]*)})? ");
    Pattern label = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"(?:[^\"\\\\]|\\\\.)*\"");
    Map<String, Set<String>> families = new TreeMap<>();
    for (String line : scrape.split("\n")) {
      Matcher m = sample.matcher(line);
      if (!m.find()) {
        continue;
      }
      Set<String> labels =
          families.computeIfAbsent(meterOf(m.group(1), documented), k -> new TreeSet<>());
      if (m.group(3) != null) {
        Matcher l = label.matcher(m.group(3));
        while (l.find()) {
          if (!l.group(1).equals("le")) {
            labels.add(l.group(1));
          }
        }
      }
    }
    return families;
  }

  /**
   * The documented meter a family belongs to (the longest name that fits), or the family itself.
   */
  private static String meterOf(String family, Map<String, Set<String>> documented) {
    String best = null;
    for (String meter : documented.keySet()) {
      String base = meter.replace('.', '_');
      for (String suffix : SUFFIXES) {
        if (family.equals(base + suffix) && (best == null || meter.length() > best.length())) {
          best = meter;
        }
      }
    }
    return best == null ? family : best;
  }

  /**
   * Every meter row of the docs' tables ({@code | `sluice.a.b` (kind) / `c` | tags | meaning |}):
   * each name in its first cell (a short name completed by the full one before it) with the tag
   * keys of its second cell, the words before {@code =} or a parenthesis, split at commas outside
   * parentheses.
   */
  static Map<String, Set<String>> documentedTags() throws IOException {
    Map<String, Set<String>> tags = new TreeMap<>();
    Pattern quoted = Pattern.compile("`([a-z0-9.]+)`");
    for (String doc : new String[] {"docs/architecture.md", "docs/configuration.md"}) {
      for (String line : Files.readAllLines(ROOT.resolve(doc))) {
        if (!line.startsWith("| `sluice.")) {
          continue;
        }
        List<String> cells = cells(line);
        Set<String> keys = tagKeys(cells.get(1));
        String full = null;
        Matcher m = quoted.matcher(cells.get(0));
        while (m.find()) {
          String token = m.group(1);
          if (token.startsWith("sluice.")) {
            full = token;
            tags.put(token, keys);
          } else if (full != null) {
            tags.put(full.substring(0, full.lastIndexOf('.') + 1) + token, keys);
          }
        }
      }
    }
    return tags;
  }

  /** A table row's cells, a {@code |} inside backquotes kept in its cell. */
  private static List<String> cells(String row) {
    List<String> cells = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean code = false;
    for (int i = 1; i < row.length(); i++) {
      char c = row.charAt(i);
      if (c == '`') {
        code = !code;
      }
      if (c == '|' && !code) {
        cells.add(cell.toString().trim());
        cell.setLength(0);
      } else {
        cell.append(c);
      }
    }
    return cells;
  }

  private static Set<String> tagKeys(String cell) {
    Set<String> keys = new TreeSet<>();
    int depth = 0;
    StringBuilder part = new StringBuilder();
    for (char c : (cell + ",").toCharArray()) {
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        Matcher key = Pattern.compile("^\\s*([a-z][a-z0-9_.]*)").matcher(part);
        if (key.find()) {
          keys.add(key.group(1).replace('.', '_'));
        }
        part.setLength(0);
        continue;
      }
      if (depth == 0) {
        part.append(c);
      }
    }
    return keys;
  }
}
