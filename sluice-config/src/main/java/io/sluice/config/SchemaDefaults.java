package io.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.batch.BatchExecuteProcessor;
import io.sluice.batch.BatchJob;
import io.sluice.batch.BatchStep;
import io.sluice.core.Application;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import io.sluice.core.expression.Template;
import io.sluice.core.file.FileSourceConfig;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.vm.VmPersistence;
import io.sluice.http.HttpRequestConfig;
import io.sluice.http.HttpServerConfig;
import io.sluice.http.TlsConfig;
import io.sluice.jobs.ClaimOrder;
import io.sluice.jobs.JobExecutorConfig;
import io.sluice.jobs.JobStores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The defaults of the schema that the Java builders also have, taken from the builders: the schema
 * file leaves them out and {@link #fill} writes them in, so {@code sluice schema}, the guide's
 * tables and what a builder does with an unset value cannot disagree. Defaults only the YAML has (a
 * logger's message template, {@code threads: auto}) stay written in the schema file.
 */
final class SchemaDefaults {

  private SchemaDefaults() {}

  private static final String JOBS = "/properties/sluice/properties/jobs/properties/";
  private static final String STORE = "/properties/sluice/properties/store/properties/";
  private static final String PROFILE = "/$defs/threadingProfile/properties/";
  private static final String AUTO = "/$defs/strategy/properties/auto/properties/";
  private static final String FILE = "/$defs/source/properties/file/properties/";
  private static final String VM = "/$defs/source/properties/vm-listener/properties/";
  private static final String HTTP = "/$defs/source/properties/http-listener/properties/";
  private static final String REQUEST = "/$defs/processor/properties/http-request/properties/";

  /** Schema pointer of a property to the Java default it takes. */
  static Map<String, Object> table() {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("/properties/sluice/properties/shutdownTimeout", Application.DEFAULT_SHUTDOWN_TIMEOUT);
    d.put("/properties/sluice/properties/vmQueueCapacity", Application.DEFAULT_VM_QUEUE_CAPACITY);

    StorageConfig store = StorageConfig.defaults();
    d.put(STORE + "dataDir", StorageConfig.DEFAULT_DATA_DIR);
    d.put(STORE + "sync", store.sync());
    d.put(STORE + "poolSize", store.poolSize());
    d.put(STORE + "connectTimeout", store.connectTimeout());

    // A node id given, so that no host name is looked up for the defaults.
    JobExecutorConfig jobs = JobExecutorConfig.builder().nodeId("defaults").build();
    d.put(JOBS + "concurrency", jobs.concurrency());
    d.put(JOBS + "leaseDuration", jobs.leaseDuration());
    d.put(JOBS + "heartbeatInterval", jobs.heartbeatInterval());
    d.put(JOBS + "safetyPoll", jobs.safetyPoll());
    d.put(JOBS + "retryBackoff", jobs.retryBackoff());
    d.put(JOBS + "maxRetryBackoff", jobs.maxRetryBackoff());
    d.put(JOBS + "backoffFactor", jobs.backoffFactor());
    d.put(JOBS + "depthInterval", jobs.depthInterval());
    d.put(JOBS + "shutdownTimeout", jobs.shutdownTimeout());
    d.put(JOBS + "acquisition", jobs.acquisition().key());
    d.put(JOBS + "jobsPerCycle", jobs.jobsPerCycle());
    d.put(JOBS + "maxJobsPerCycle", jobs.maxJobsPerCycle());
    d.put(JOBS + "acquisitionBackoff", jobs.acquisitionBackoff());
    d.put(JOBS + "maxAcquisitionBackoff", jobs.maxAcquisitionBackoff());
    d.put(JOBS + "acquisitionBackoffFactor", jobs.acquisitionBackoffFactor());
    d.put(JOBS + "acquisitionBackoffDecreaseThreshold", jobs.acquisitionBackoffDecreaseThreshold());
    d.put(JOBS + "idleWait", jobs.idleWait());
    d.put(JOBS + "maxIdleWait", jobs.maxIdleWait());
    d.put(JOBS + "idleWaitFactor", jobs.idleWaitFactor());
    d.put(JOBS + "claimOrder", ClaimOrder.PRIORITY.key());
    d.put(JOBS + "priorityAging", JobStores.DEFAULT_PRIORITY_AGING);

    d.put("/properties/serialization/properties/default", SerializationConfig.DEFAULT_NAME);
    d.put(
        "/properties/serialization/properties/maxSize",
        new Size(SerializationConfig.DEFAULT_MAX_SIZE));
    d.put("/properties/serialization/properties/maxDepth", SerializationConfig.DEFAULT_MAX_DEPTH);
    d.put("/$defs/namedSerializer/properties/codec", SerializationConfig.DEFAULT_CODEC);

    d.put("/$defs/batchJob/properties/blockSize", BatchJob.DEFAULT_BLOCK_SIZE);
    d.put("/$defs/batchJob/properties/maxFailedRecords", BatchJob.DEFAULT_MAX_FAILED_RECORDS);
    d.put("/$defs/batchStep/properties/accept", BatchStep.builder("defaults").build().accept());

    d.put("/$defs/tlsListener/properties/protocols", TlsConfig.DEFAULT_PROTOCOLS);
    d.put("/$defs/tlsListener/properties/clientAuth", TlsConfig.ClientAuth.NONE);
    d.put("/$defs/tlsListener/properties/reloadInterval", TlsConfig.DEFAULT_RELOAD_INTERVAL);
    d.put("/$defs/tlsRequester/properties/protocols", TlsConfig.DEFAULT_PROTOCOLS);

    ProcessingStrategy.Auto auto = ProcessingStrategy.Auto.DEFAULT;
    d.put(AUTO + "maxInFlight", auto.maxInFlight());
    d.put(AUTO + "backpressure", auto.backpressure());
    d.put(AUTO + "waitTimeout", auto.waitTimeout());
    d.put(AUTO + "initialLimit", auto.initialLimit());
    d.put(AUTO + "maxLimit", auto.maxLimit());

    ThreadingProfile profile = ThreadingProfile.DEFAULT;
    d.put(PROFILE + "maxThreadsActive", profile.maxThreadsActive());
    d.put(PROFILE + "maxQueue", profile.maxQueue());
    d.put(PROFILE + "exhaustedAction", profile.exhaustedAction());
    d.put(PROFILE + "waitTimeout", profile.waitTimeout());
    d.put(PROFILE + "idleTtl", profile.idleTtl());
    d.put(PROFILE + "maxThreadsIdle", profile.maxThreadsIdle());

    FileSourceConfig file = FileSourceConfig.builder(Path.of("defaults")).build();
    d.put(FILE + "pattern", file.pattern());
    d.put(FILE + "pollingFrequency", file.pollingFrequency());
    d.put(FILE + "minAge", file.minAge());
    d.put(FILE + "afterRead", file.afterRead());
    d.put(FILE + "maxConcurrentFiles", file.maxConcurrentFiles());
    d.put(FILE + "streaming", file.streaming());

    d.put("/$defs/batchInput/properties/quiet", BatchMapper.DEFAULT_QUIET);
    d.put(
        "/$defs/processor/properties/store-put/properties/maxEntries",
        ObjectStoreOptions.DEFAULTS.maxEntries());
    d.put(
        "/$defs/processor/properties/batch-execute/properties/target",
        BatchExecuteProcessor.DEFAULT_TARGET);

    VmPersistence vm = VmPersistence.DEFAULTS;
    d.put(VM + "lockTimeout", vm.queue().lockTimeout());
    d.put(VM + "maxDeliveries", vm.queue().maxDeliveries());
    d.put(VM + "redeliveryDelay", vm.redeliveryDelay());

    HttpServerConfig http = HttpServerConfig.builder(0).build();
    d.put(HTTP + "host", http.host());
    d.put(HTTP + "maxBodySize", new Size(http.maxBodySize()));
    d.put(HTTP + "maxHeaderSize", new Size(http.maxHeaderSize()));
    d.put(HTTP + "maxInitialLineLength", new Size(http.maxInitialLineLength()));
    d.put(HTTP + "requestTimeout", http.requestTimeout());
    d.put(HTTP + "idleTimeout", http.idleTimeout());
    d.put(HTTP + "maxConnections", http.maxConnections());
    d.put(HTTP + "keepAlive", http.keepAlive());
    d.put(HTTP + "backlog", http.backlog());
    d.put(HTTP + "retryAfter", http.retryAfter());
    d.put(HTTP + "shutdownTimeout", http.shutdownTimeout());

    HttpRequestConfig request =
        HttpRequestConfig.builder("GET", Template.parse("url", "http://localhost/")).build();
    d.put(REQUEST + "connectTimeout", request.connectTimeout());
    d.put(REQUEST + "responseTimeout", request.responseTimeout());
    d.put(REQUEST + "maxConnectionsPerHost", request.maxConnectionsPerHost());
    d.put(REQUEST + "maxResponseSize", new Size(request.maxResponseSize()));
    d.put(REQUEST + "failOnErrorStatus", request.failOnErrorStatus());

    d.put("/$defs/vmPublish/properties/timeout", ProcessorMapper.DEFAULT_VM_TIMEOUT);
    return d;
  }

  /** A number of bytes, written with the largest unit that divides it ({@code 64MB}). */
  record Size(long bytes) {}

  /**
   * Writes each default of {@link #table()} into {@code schema}; fails when the schema file names
   * one itself (a second place) or a pointer names no property.
   */
  static void fill(ObjectNode schema) {
    table()
        .forEach(
            (pointer, value) -> {
              JsonNode property = schema.at(pointer);
              if (!(property instanceof ObjectNode object)) {
                throw new IllegalStateException("the schema has no property at " + pointer);
              }
              if (object.has("default")) {
                throw new IllegalStateException(
                    "the schema file writes the default of "
                        + pointer
                        + ", which comes from the Java builders: leave it out of the file");
              }
              object.set("default", json(value));
            });
  }

  /** {@code value} as the YAML file would write it. */
  static JsonNode json(Object value) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    return switch (value) {
      case Duration duration -> nodes.textNode(duration(duration));
      case Size size -> nodes.textNode(size(size.bytes()));
      case Integer number -> whole(number);
      case Long number -> whole(number);
      case Double number ->
          number == Math.rint(number) ? whole(number.longValue()) : nodes.numberNode(number);
      case Boolean flag -> nodes.booleanNode(flag);
      case Enum<?> constant -> nodes.textNode(constant.name());
      case List<?> list -> {
        ArrayNode array = nodes.arrayNode();
        list.forEach(item -> array.add(json(item)));
        yield array;
      }
      default -> nodes.textNode(value.toString());
    };
  }

  /** A whole number as a parser reads it back: an int when it fits (2, not 2.0 or 2L). */
  private static JsonNode whole(long number) {
    return number == (int) number
        ? JsonNodeFactory.instance.numberNode((int) number)
        : JsonNodeFactory.instance.numberNode(number);
  }

  /** A duration as the guide writes it: the largest of h, m, s, ms that divides it. */
  static String duration(Duration value) {
    long millis = value.toMillis();
    if (millis == 0) {
      return "0s";
    }
    if (millis % 3_600_000 == 0) {
      return millis / 3_600_000 + "h";
    }
    if (millis % 60_000 == 0) {
      return millis / 60_000 + "m";
    }
    return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
  }

  /** A size as the guide writes it: the largest of GB, MB, KB that divides it, else bytes. */
  static String size(long bytes) {
    String[] units = {"GB", "MB", "KB"};
    for (int i = 0; i < units.length; i++) {
      long scale = 1L << (10 * (units.length - i));
      if (bytes != 0 && bytes % scale == 0) {
        return bytes / scale + units[i];
      }
    }
    return bytes + "B";
  }
}
