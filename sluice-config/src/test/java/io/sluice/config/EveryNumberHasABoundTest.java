package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.core.ConfigProblem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every integer, number and duration of a configuration has a bound that the schema says, and the
 * model enforces the same one: the largest value is taken, one more is refused at its key.
 */
class EveryNumberHasABoundTest {

  @Test
  void everyIntegerAndNumberOfTheSchemaHasAMinimumAndAMaximumInItsDescription() throws IOException {
    List<String> unbounded = new ArrayList<>();
    EverySchemaPropertyHasADescriptionTest.forEachSchema(
        EverySchemaPropertyHasADescriptionTest.schema(),
        "#",
        (pointer, node) -> {
          boolean numeric =
              node.path("type").asText().matches("integer|number")
                  || node.path("type").toString().contains("\"integer\"");
          // A codec's level is bounded by the codec named beside it (deflate 0-9, zstd -7 to 22).
          if (numeric && !pointer.endsWith("/level") && !bounded(node)) {
            unbounded.add(pointer);
          }
        });
    assertThat(unbounded).isEmpty();
  }

  @Test
  void everyDurationSaysItsLongestInItsDescription() throws IOException {
    List<String> unbounded = new ArrayList<>();
    EverySchemaPropertyHasADescriptionTest.forEachSchema(
        EverySchemaPropertyHasADescriptionTest.schema(),
        "#",
        (pointer, node) -> {
          if (node.path("$ref").asText().equals("#/$defs/duration")
              && !node.path("description").asText().contains("At most ")) {
            unbounded.add(pointer);
          }
        });
    assertThat(unbounded).isEmpty();
  }

  private static boolean bounded(JsonNode node) {
    return node.has("minimum")
        && node.has("maximum")
        && node.path("description")
            .asText()
            .contains(
                "rom "
                    + node.get("minimum").asText()
                    + " to "
                    + node.get("maximum").asText()
                    + ".");
  }

  /** Each key at its largest value is taken, and one above it refused with "at most". */
  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "sluice: { shutdownTimeout: %s }                                    | sluice.shutdownTimeout | 24h",
        "sluice: { vmQueueCapacity: %s }                                    | sluice.vmQueueCapacity | 1000000",
        "sluice: { store: { url: 'jdbc:postgresql://db/app', poolSize: %s } } | sluice.store.poolSize | 1000",
        "sluice: { store: { connectTimeout: %s } }                          | sluice.store.connectTimeout | 24h",
        "sluice: { jobs: { concurrency: %s } }                              | sluice.jobs.concurrency | 10000",
        "sluice: { jobs: { prefetch: %s } }                                 | sluice.jobs.prefetch | 10000",
        "sluice: { jobs: { leaseDuration: %s } }                            | sluice.jobs.leaseDuration | 24h",
        "sluice: { jobs: { safetyPoll: %s } }                               | sluice.jobs.safetyPoll | 24h",
        "sluice: { jobs: { retryBackoff: %s, maxRetryBackoff: 24h } }       | sluice.jobs.retryBackoff | 24h",
        "sluice: { jobs: { maxRetryBackoff: %s } }                          | sluice.jobs.maxRetryBackoff | 24h",
        "sluice: { jobs: { backoffFactor: %s } }                            | sluice.jobs.backoffFactor | 100",
        "sluice: { jobs: { depthInterval: %s } }                            | sluice.jobs.depthInterval | 24h",
        "sluice: { jobs: { shutdownTimeout: %s } }                          | sluice.jobs.shutdownTimeout | 24h",
        "sluice: { jobs: { jobsPerCycle: %s, maxJobsPerCycle: 10000 } }     | sluice.jobs.jobsPerCycle | 10000",
        "sluice: { jobs: { maxJobsPerCycle: %s } }                          | sluice.jobs.maxJobsPerCycle | 10000",
        "sluice: { jobs: { acquisitionBackoff: %s, maxAcquisitionBackoff: 24h } } | sluice.jobs.acquisitionBackoff | 24h",
        "sluice: { jobs: { maxAcquisitionBackoff: %s } }                    | sluice.jobs.maxAcquisitionBackoff | 24h",
        "sluice: { jobs: { acquisitionBackoffFactor: %s } }                 | sluice.jobs.acquisitionBackoffFactor | 100",
        "sluice: { jobs: { acquisitionBackoffDecreaseThreshold: %s } }      | sluice.jobs.acquisitionBackoffDecreaseThreshold | 1000000",
        "sluice: { jobs: { idleWait: %s, maxIdleWait: 24h } }               | sluice.jobs.idleWait | 24h",
        "sluice: { jobs: { maxIdleWait: %s } }                              | sluice.jobs.maxIdleWait | 24h",
        "sluice: { jobs: { idleWaitFactor: %s } }                           | sluice.jobs.idleWaitFactor | 100",
        "sluice: { jobs: { priorityAging: %s } }                            | sluice.jobs.priorityAging | 24h",
        "sluice: { jobs: { history: %s } }                                  | sluice.jobs.history | 8760h",
        "batch: [{ name: b, input: { generator: { count: 1 } }, blockSize: %s, steps: [{ name: s }] }] | batch[0].blockSize | 100000",
        "batch: [{ name: b, input: { generator: { count: 1 } }, maxFailedRecords: %s, steps: [{ name: s }] }] | batch[0].maxFailedRecords | 1000000000",
        "batch: [{ name: b, input: { generator: { count: 1 } }, threads: %s, steps: [{ name: s }] }] | batch[0].threads | 1000",
        "batch: [{ name: b, input: { generator: { count: %s } }, steps: [{ name: s }] }] | batch[0].input.generator.count | 1000000000",
        "batch: [{ name: b, input: { generator: { count: 1 } }, steps: [{ name: s, aggregator: { size: %s, sink: [{ logger: {} }] } }] }] | batch[0].steps[0].aggregator.size | 1000000",
        "flows: [{ name: f, strategy: { synchronous: { receiver: { maxThreadsActive: %s } } } }] | flows[0].strategy.synchronous.receiver.maxThreadsActive | 10000",
        "flows: [{ name: f, strategy: { synchronous: { receiver: { maxThreadsActive: 10000, maxThreadsIdle: %s } } } }] | flows[0].strategy.synchronous.receiver.maxThreadsIdle | 10000",
        "flows: [{ name: f, strategy: { synchronous: { receiver: { maxQueue: %s } } } }] | flows[0].strategy.synchronous.receiver.maxQueue | 1000000",
        "threading: { profiles: { p: { maxThreadsActive: %s } } }             | threading.profiles.p.maxThreadsActive | 10000",
        "threading: { defaultProfile: { waitTimeout: %s } }                   | threading.defaultProfile.waitTimeout | 24h",
        "threading: { strategies: { s: { auto: { maxInFlight: %s } } } }      | threading.strategies.s.auto.maxInFlight | 1000000",
        "threading: { defaultStrategy: { staged: { flow: { idleTtl: %s } } } } | threading.defaultStrategy.staged.flow.idleTtl | 24h",
        "flows: [{ name: f, strategy: { synchronous: { receiver: { waitTimeout: %s } } } }] | flows[0].strategy.synchronous.receiver.waitTimeout | 24h",
        "flows: [{ name: f, strategy: { synchronous: { receiver: { idleTtl: %s } } } }] | flows[0].strategy.synchronous.receiver.idleTtl | 24h",
        "flows: [{ name: f, strategy: { auto: { maxInFlight: %s } } }]      | flows[0].strategy.auto.maxInFlight | 1000000",
        "flows: [{ name: f, strategy: { auto: { waitTimeout: %s } } }]      | flows[0].strategy.auto.waitTimeout | 24h",
        "flows: [{ name: f, strategy: { auto: { initialLimit: %s, maxLimit: 100000 } } }] | flows[0].strategy.auto.initialLimit | 100000",
        "flows: [{ name: f, strategy: { auto: { maxLimit: %s } } }]         | flows[0].strategy.auto.maxLimit | 100000",
        "flows: [{ name: f, source: { file: { directory: in, pollingFrequency: %s } } }] | flows[0].source.file.pollingFrequency | 24h",
        "flows: [{ name: f, source: { file: { directory: in, minAge: %s } } }] | flows[0].source.file.minAge | 24h",
        "flows: [{ name: f, source: { file: { directory: in, maxConcurrentFiles: %s } } }] | flows[0].source.file.maxConcurrentFiles | 10000",
        "flows: [{ name: f, source: { scheduler: { frequency: %s } } }]     | flows[0].source.scheduler.frequency | 8760h",
        "flows: [{ name: f, source: { scheduler: { frequency: 1s, startDelay: %s } } }] | flows[0].source.scheduler.startDelay | 8760h",
        "flows: [{ name: f, source: { vm-listener: { queue: q, consumers: %s } } }] | flows[0].source.vm-listener.consumers | 1000",
        "flows: [{ name: f, source: { vm-listener: { queue: q, persistent: true, lockTimeout: %s } } }] | flows[0].source.vm-listener.lockTimeout | 24h",
        "flows: [{ name: f, source: { vm-listener: { queue: q, persistent: true, maxDeliveries: %s } } }] | flows[0].source.vm-listener.maxDeliveries | 10000",
        "flows: [{ name: f, source: { vm-listener: { queue: q, persistent: true, redeliveryDelay: %s } } }] | flows[0].source.vm-listener.redeliveryDelay | 24h",
        "flows: [{ name: f, source: { http-listener: { port: 1, maxHeaderSize: %s } } }] | flows[0].source.http-listener.maxHeaderSize | 1MB",
        "flows: [{ name: f, source: { http-listener: { port: 1, maxInitialLineLength: %s } } }] | flows[0].source.http-listener.maxInitialLineLength | 1MB",
        "flows: [{ name: f, source: { http-listener: { port: 1, requestTimeout: %s } } }] | flows[0].source.http-listener.requestTimeout | 24h",
        "flows: [{ name: f, source: { http-listener: { port: 1, idleTimeout: %s } } }] | flows[0].source.http-listener.idleTimeout | 24h",
        "flows: [{ name: f, source: { http-listener: { port: 1, maxConnections: %s } } }] | flows[0].source.http-listener.maxConnections | 1000000",
        "flows: [{ name: f, source: { http-listener: { port: 1, backlog: %s } } }] | flows[0].source.http-listener.backlog | 65535",
        "flows: [{ name: f, source: { http-listener: { port: 1, retryAfter: %s } } }] | flows[0].source.http-listener.retryAfter | 24h",
        "flows: [{ name: f, source: { http-listener: { port: 1, shutdownTimeout: %s } } }] | flows[0].source.http-listener.shutdownTimeout | 24h",
        "flows: [{ name: f, processors: [{ vm-publish: { queue: q, timeout: %s } }] }] | flows[0].processors[0].vm-publish.timeout | 24h",
        "flows: [{ name: f, processors: [{ store-put: { store: s, key: k, ttl: %s } }] }] | flows[0].processors[0].store-put.ttl | 87600h",
        "flows: [{ name: f, processors: [{ http-request: { url: 'http://h/', connectTimeout: %s } }] }] | flows[0].processors[0].http-request.connectTimeout | 24h",
        "flows: [{ name: f, processors: [{ http-request: { url: 'http://h/', responseTimeout: %s } }] }] | flows[0].processors[0].http-request.responseTimeout | 24h",
        "flows: [{ name: f, processors: [{ http-request: { url: 'http://h/', maxConnectionsPerHost: %s } }] }] | flows[0].processors[0].http-request.maxConnectionsPerHost | 10000",
        "flows: [{ name: f, processors: [{ read: { maxDepth: %s } }] }] | flows[0].processors[0].read.maxDepth | 5000",
        "flows: [{ name: f, processors: [{ read: { maxSize: %s } }] }] | flows[0].processors[0].read.maxSize | 1024MB",
        "dataSources: [{ name: d, url: 'jdbc:sqlite:d.db', pool: { maxSize: %s } }] | dataSources[0].pool.maxSize | 1000",
        "dataSources: [{ name: d, url: 'jdbc:sqlite:d.db', pool: { maxSize: 1000, minIdle: %s } }] | dataSources[0].pool.minIdle | 1000",
        "dataSources: [{ name: d, url: 'jdbc:sqlite:d.db', pool: { connectionTimeout: %s } }] | dataSources[0].pool.connectionTimeout | 24h",
        "dataSources: [{ name: d, url: 'jdbc:sqlite:d.db', pool: { maxLifetime: 0s, idleTimeout: %s } }] | dataSources[0].pool.idleTimeout | 24h",
        "dataSources: [{ name: d, url: 'jdbc:sqlite:d.db', pool: { idleTimeout: 0s, maxLifetime: %s } }] | dataSources[0].pool.maxLifetime | 24h",
        "flows: [{ name: f, processors: [{ db-select: { dataSource: d, sql: s, fetchSize: %s } }] }]\\ndataSources: [{ name: d, url: 'jdbc:sqlite:d.db' }] | flows[0].processors[0].db-select.fetchSize | 1000000000",
        "flows: [{ name: f, processors: [{ db-select: { dataSource: d, sql: s, maxRows: %s } }] }]\\ndataSources: [{ name: d, url: 'jdbc:sqlite:d.db' }] | flows[0].processors[0].db-select.maxRows | 1000000000",
        "flows: [{ name: f, processors: [{ db-bulk: { dataSource: d, sql: s, batchSize: %s } }] }]\\ndataSources: [{ name: d, url: 'jdbc:sqlite:d.db' }] | flows[0].processors[0].db-bulk.batchSize | 100000",
      })
  void theLargestValueIsTakenAndOneMoreIsRefused(String template, String path, String largest) {
    Configs.read(file(template, largest)).application().build();
    List<ConfigProblem> problems = Configs.problems(file(template, oneMore(largest)));
    // A paired rule (maxLimit at least initialLimit) may be broken too; the key's own is there.
    assertThat(problems)
        .as(problems.toString())
        .filteredOn(p -> p.path().equals(path))
        .singleElement()
        .satisfies(
            p -> assertThat(p.rule()).containsAnyOf("at most", "to " + largest.split("h")[0]));
  }

  /** The file of a row: its template ({@code \\n} for a line break) with {@code value}. */
  private static String file(String template, String value) {
    String yaml = template.formatted(value).replace("\\n", "\n");
    return yaml.startsWith("flows") ? yaml : yaml + "\nflows: []";
  }

  /** The smallest step above {@code value}: one, one millisecond or one byte. */
  private static String oneMore(String value) {
    if (value.endsWith("h")) {
      return "PT" + value.replace("h", "H") + "0.001S";
    }
    if (value.endsWith("MB")) {
      return String.valueOf((Long.parseLong(value.replace("MB", "")) << 20) + 1);
    }
    return String.valueOf(Long.parseLong(value) + 1);
  }
}
