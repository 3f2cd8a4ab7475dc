package io.sluice.config;

import io.sluice.core.Application;
import io.sluice.core.ConfigurationException;
import io.sluice.core.Flow;
import io.sluice.core.serialization.NamedSerializer;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.StorageConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Maps a configuration tree that passed (or failed) the schema to an application builder, its jobs
 * and its batch jobs.
 */
final class ApplicationMapper {

  private final ProcessorMapper processorMapper;
  private final StrategyMapper strategyMapper;
  private final FlowMapper flowMapper;
  private final JobsMapper jobsMapper;
  private final BatchMapper batchMapper;
  private final ProblemCollector problems;
  private final ClassLoader componentLoader;
  private final Path baseDirectory;

  ApplicationMapper(Path baseDirectory, ClassLoader componentLoader, ProblemCollector problems) {
    this.problems = problems;
    this.baseDirectory = baseDirectory;
    this.componentLoader = componentLoader;
    this.processorMapper = new ProcessorMapper(baseDirectory, componentLoader, problems);
    this.strategyMapper = new StrategyMapper(problems);
    this.flowMapper = new FlowMapper(processorMapper, strategyMapper, problems);
    this.batchMapper = new BatchMapper(processorMapper, flowMapper, problems);
    this.jobsMapper = new JobsMapper(componentLoader, problems);
  }

  /** The configuration; it is only valid when no problem was recorded. */
  Configuration map(ConfigNode root) {
    Application.Builder application = Application.builder();
    ConfigNode sluice = root.get("sluice");
    if (sluice.has("shutdownTimeout")) {
      application.shutdownTimeout(sluice.duration("shutdownTimeout", null));
    }
    if (sluice.has("vmQueueCapacity")) {
      application.vmQueueCapacity(
          sluice.integer("vmQueueCapacity", Application.DEFAULT_VM_QUEUE_CAPACITY));
    }
    StorageConfig storage = store(sluice.get("store"), application);
    if (storage != null && storage.type() == StorageConfig.Type.MEMORY) {
      String kept =
          sluice.has("jobs")
              ? "cannot keep jobs, and sluice.jobs is set"
              : root.has("batch") ? "cannot keep batch blocks, and batch jobs are declared" : null;
      if (kept != null) {
        problems.add(
            sluice.get("store").get("type").path(),
            "memory",
            kept + "; use sqlite (the default) or postgresql");
      }
    }
    serialization(root.get("serialization"), application);
    strategyMapper.declare(root.get("threading"));
    UniqueNames flowNames = new UniqueNames("flow", problems);
    for (ConfigNode node : root.items("flows")) {
      flowNames.add(node);
      Flow flow = flowMapper.flow(node);
      if (flow != null) {
        application.flow(flow);
      }
    }
    JobsConfig jobs = jobsMapper.map(sluice.get("jobs"), flowNames.names());
    BatchConfig batch = batchMapper.map(root.items("batch"), processorMapper.launcher());
    checkSerializerNames(root.get("serialization"));
    checkBatchExecutes(batch, flowNames.names());
    return new Configuration(application, jobs, batch);
  }

  /**
   * The store of {@code sluice.store:} (embedded SQLite under {@code data} when absent); null when
   * it is broken.
   */
  private StorageConfig store(ConfigNode node, Application.Builder application) {
    StorageConfig.Builder config = StorageConfig.builder();
    // An unknown type or sync is reported by the schema, at its line; it is left unset here.
    String type = node.text("type", null);
    for (StorageConfig.Type t : StorageConfig.Type.values()) {
      if (t.configName().equals(type)) {
        config.type(t);
      }
    }
    // A dataDir that is no path (a NUL in it) is a problem at its line; the default stands in.
    Path dataDir = node.has("dataDir") ? processorMapper.path(node, "dataDir") : null;
    config.dataDir(
        baseDirectory.resolve(dataDir != null ? dataDir : StorageConfig.DEFAULT_DATA_DIR));
    String sync = node.text("sync", null);
    for (StorageConfig.Sync s : StorageConfig.Sync.values()) {
      if (s.name().equals(sync)) {
        config.sync(s);
      }
    }
    config.url(node.text("url", null));
    config.user(node.text("user", null));
    config.password(node.text("password", null));
    config.poolSize(node.integer("poolSize", StorageConfig.DEFAULT_POOL_SIZE));
    config.connectTimeout(node.duration("connectTimeout", StorageConfig.DEFAULT_CONNECT_TIMEOUT));
    config.sslMode(node.text("sslMode", null));
    if (node.has("sslRootCert")) {
      config.sslRootCert(processorMapper.path(node, "sslRootCert"));
    }
    if (node.has("sslCert") || node.has("sslKey")) {
      config.sslCert(
          node.has("sslCert") ? processorMapper.path(node, "sslCert") : null,
          node.has("sslKey") ? processorMapper.path(node, "sslKey") : null);
    }
    StorageConfig built = problems.attempt("", config::build);
    if (built != null) {
      application.storage(built);
    }
    return built;
  }

  /** Each batch-execute names a batch job of the file, and its result flow a flow of it. */
  private void checkBatchExecutes(BatchConfig batch, java.util.Collection<String> flows) {
    processorMapper
        .batchJobNames()
        .forEach((path, job) -> problems.knownName(path, job, batch.names(), "batch job"));
    processorMapper
        .resultFlowNames()
        .forEach((path, flow) -> problems.knownName(path, flow, flows, "flow"));
  }

  /**
   * Every named serializer a store or queue asked for must be declared under {@code
   * serialization.serializers} (or be the built-in {@code default}): otherwise its first put would
   * fail at run time.
   */
  private void checkSerializerNames(ConfigNode serialization) {
    Set<String> declared = new TreeSet<>();
    declared.add(SerializationConfig.DEFAULT_NAME);
    ConfigNode serializers = serialization.get("serializers");
    if (serializers.isPresent() && serializers.node().isObject()) {
      serializers.node().fieldNames().forEachRemaining(declared::add);
    }
    Map<String, String> named = new LinkedHashMap<>(strategyMapper.serializerNames());
    named.putAll(processorMapper.serializerNames());
    named.forEach((path, name) -> problems.knownName(path, name, declared, "named serializer"));
  }

  /**
   * The stored values of {@code serialization:} (the defaults when absent), made here so that an
   * unknown serializer or codec is reported at its line, with the serializers and codecs the
   * component class loader finds.
   */
  private void serialization(ConfigNode node, Application.Builder application) {
    SerializationConfig.Builder config = SerializationConfig.builder();
    if (node.has("default")) {
      config.defaultName(node.text("default", SerializationConfig.DEFAULT_NAME));
    }
    config.allow(node.texts("allow"));
    config.maxSize(node.size("maxSize", SerializationConfig.DEFAULT_MAX_SIZE));
    config.maxDepth(node.integer("maxDepth", SerializationConfig.DEFAULT_MAX_DEPTH));
    List<NamedSerializer> named = new ArrayList<>();
    ConfigNode serializers = node.get("serializers");
    if (serializers.isPresent() && serializers.node().isObject()) {
      serializers
          .node()
          .fieldNames()
          .forEachRemaining(
              name -> {
                ConfigNode one = serializers.get(name);
                named.add(
                    new NamedSerializer(
                        name,
                        one.text("type", null),
                        one.text("codec", SerializationConfig.DEFAULT_CODEC),
                        one.has("level") ? one.integer("level", 0) : null));
              });
    }
    named.forEach(s -> config.serializer(s.name(), s.serializer(), s.codec(), s.level()));
    SerializationConfig built = problems.attempt("", config::build);
    if (built == null) {
      checkKindsAlone(named);
    } else {
      StoredValues stored =
          problems.attempt(
              "", () -> StoredValues.builder(built).discoverWith(componentLoader).build());
      if (stored != null) {
        application.storedValues(stored);
      }
    }
  }

  /**
   * When the rest of {@code serialization:} is broken, still reports the named serializers whose
   * kind, codec or level is not installed, so that every error comes at once.
   */
  private void checkKindsAlone(List<NamedSerializer> named) {
    SerializationConfig.Builder alone = SerializationConfig.builder();
    named.stream()
        .filter(s -> s.serializer() != null && !s.serializer().isBlank())
        .filter(s -> s.codec() != null && !s.codec().isBlank())
        .forEach(s -> alone.serializer(s.name(), s.serializer(), s.codec(), s.level()));
    SerializationConfig config;
    try {
      config = alone.build();
    } catch (ConfigurationException e) {
      return;
    }
    problems.attempt("", () -> StoredValues.builder(config).discoverWith(componentLoader).build());
  }
}
