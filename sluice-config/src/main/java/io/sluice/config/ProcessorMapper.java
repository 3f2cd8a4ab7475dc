package io.sluice.config;

import io.sluice.batch.BatchExecuteProcessor;
import io.sluice.batch.BatchLauncher;
import io.sluice.core.OnError;
import io.sluice.core.expression.Expression;
import io.sluice.core.expression.Template;
import io.sluice.core.file.FileWriteProcessor;
import io.sluice.core.file.WriteMode;
import io.sluice.core.processor.AsyncScope;
import io.sluice.core.processor.ExpressionProcessor;
import io.sluice.core.processor.JavaComponentProcessor;
import io.sluice.core.processor.LoggerProcessor;
import io.sluice.core.processor.ObjectStoreProcessor;
import io.sluice.core.processor.SetPayloadProcessor;
import io.sluice.core.processor.SetVariableProcessor;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.vm.VmPublishProcessor;
import io.sluice.http.HttpRequestConfig;
import io.sluice.http.HttpRequestProcessor;
import io.sluice.http.TlsConfig;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.event.Level;

/** Maps processor lists ({@code processors}, {@code sinks}, scopes) and error handlers. */
final class ProcessorMapper {

  /** How long vm-publish and vm-request wait unless {@code timeout} says. */
  static final Duration DEFAULT_VM_TIMEOUT = Duration.ofSeconds(30);

  private final Path baseDirectory;
  private final ClassLoader componentLoader;

  /** The longest life of an object store entry: ten years. */
  static final Duration LONGEST_TTL = Duration.ofDays(3650);

  private final ProblemCollector problems;
  final TlsMapper tls;

  /** The most entries a store-put may bound its store to: a hundred million. */
  static final int MAX_STORE_ENTRIES = 100_000_000;

  /** Starts the file's batch jobs from batch-execute processors, once the application is built. */
  private final BatchLauncher launcher = new BatchLauncher();

  /** Each batch-execute's job and result flow, by the path that names them. */
  private final Map<String, String> batchJobNames = new LinkedHashMap<>();

  private final Map<String, String> resultFlowNames = new LinkedHashMap<>();

  /** Where each named serializer a store or queue asks for is named: path to name. */
  private final Map<String, String> serializerNames = new LinkedHashMap<>();

  ProcessorMapper(Path baseDirectory, ClassLoader componentLoader, ProblemCollector problems) {
    this.baseDirectory = baseDirectory;
    this.componentLoader = componentLoader;
    this.problems = problems;
    this.tls = new TlsMapper(baseDirectory, problems);
  }

  /** The processors of list {@code key}; the broken ones are recorded and left out. */
  List<Processor> processors(ConfigNode parent, String key) {
    List<Processor> processors = new ArrayList<>();
    for (ConfigNode item : parent.items(key)) {
      Map.Entry<String, ConfigNode> kind = item.single();
      Processor processor = kind == null ? null : processor(kind.getKey(), kind.getValue());
      if (processor != null) {
        processors.add(processor);
      }
    }
    return processors;
  }

  List<OnError> errorHandler(ConfigNode flow) {
    List<OnError> branches = new ArrayList<>();
    for (ConfigNode item : flow.items("errorHandler")) {
      Map.Entry<String, ConfigNode> kind = item.single();
      if (kind == null) {
        continue;
      }
      ConfigNode branch = kind.getValue();
      List<String> types = branch.texts("types");
      Expression when =
          branch.has("when")
              ? problems.attempt(
                  "",
                  () -> Expression.compile(branch.get("when").path(), branch.text("when", null)))
              : null;
      List<Processor> processors = processors(branch, "processors");
      switch (kind.getKey()) {
        case "onErrorContinue" -> branches.add(new OnError.Continue(types, when, processors));
        case "onErrorPropagate" -> branches.add(new OnError.Propagate(types, when, processors));
        default ->
            problems.add(
                branch.path(),
                kind.getKey(),
                "is not an error branch; use onErrorContinue or onErrorPropagate");
      }
    }
    return branches;
  }

  private Processor processor(String kind, ConfigNode node) {
    return switch (kind) {
      case "logger" -> {
        Template message = template(node, "message", "#[payload]");
        Level level = node.enumValue("level", Level.class, Level.INFO);
        yield message == null
            ? null
            : new LoggerProcessor(message, level, node.text("category", null));
      }
      case "set-payload" -> {
        Template value = template(node, "value", null);
        yield value == null ? null : new SetPayloadProcessor(value);
      }
      case "set-variable" -> {
        Template value = template(node, "value", null);
        String name = node.text("name", null);
        yield value == null || name == null ? null : new SetVariableProcessor(name, value);
      }
      case "expression" -> {
        ProcessingType type =
            node.enumValue("processingType", ProcessingType.class, ProcessingType.CPU_LITE);
        Expression expression =
            problems.attempt(
                "",
                () ->
                    Expression.compile(
                        node.get("expression").path(), node.text("expression", null)));
        yield expression == null
            ? null
            : new ExpressionProcessor(expression, node.text("target", null), type);
      }
      case "component" -> component(node);
      case "async" -> new AsyncScope(processors(node, "processors"));
      case "vm-publish", "vm-request" -> {
        String queue = node.text("queue", null);
        Duration timeout = node.duration("timeout", DEFAULT_VM_TIMEOUT);
        if (queue == null) {
          problems.add(node.get("queue").path(), null, "is required");
          yield null;
        }
        boolean persistent = node.bool("persistent", false);
        String serializer = serializerName(node);
        yield problems.attempt(
            node.get(serializer != null && !persistent ? "serializer" : "persistent").path(),
            () ->
                new VmPublishProcessor(
                    queue, kind.equals("vm-request"), timeout, persistent, serializer));
      }
      case "file-write" -> {
        Path directory = path(node, "directory");
        Template fileName = template(node, "fileName", "#[attributes.fileName]");
        WriteMode mode = node.enumValue("mode", WriteMode.class, WriteMode.OVERWRITE);
        yield directory == null || fileName == null
            ? null
            : new FileWriteProcessor(directory, fileName, mode);
      }
      case "store-put", "store-get", "store-remove" -> objectStore(kind, node);
      case "http-request" -> httpRequest(node);
      case "batch-execute" -> batchExecute(node);
      default -> {
        problems.add(node.path(), kind, "is not a known processor");
        yield null;
      }
    };
  }

  private Processor component(ConfigNode node) {
    String className = node.text("class", null);
    if (className == null) {
      problems.add(node.get("class").path(), null, "is required");
      return null;
    }
    ProcessingType type = node.enumValue("processingType", ProcessingType.class, null);
    String method = node.text("method", null);
    return problems.attempt(
        "",
        () -> JavaComponentProcessor.load(node.path(), className, method, type, componentLoader));
  }

  private Processor httpRequest(ConfigNode node) {
    Template url = template(node, "url", null);
    Map<String, Template> headers = new LinkedHashMap<>();
    ConfigNode headerNode = node.get("headers");
    if (headerNode.isPresent()) {
      headerNode
          .node()
          .properties()
          .forEach(
              header -> headers.put(header.getKey(), template(headerNode, header.getKey(), null)));
    }
    HttpRequestConfig d =
        HttpRequestConfig.builder("GET", Template.parse("url", "http://localhost/")).build();
    HttpRequestConfig.Builder config =
        HttpRequestConfig.builder(node.text("method", "GET"), url)
            .headers(headers)
            .connectTimeout(node.duration("connectTimeout", d.connectTimeout()))
            .responseTimeout(node.duration("responseTimeout", d.responseTimeout()))
            .maxConnectionsPerHost(node.integer("maxConnectionsPerHost", d.maxConnectionsPerHost()))
            .maxResponseSize(node.size("maxResponseSize", d.maxResponseSize()))
            .failOnErrorStatus(node.bool("failOnErrorStatus", d.failOnErrorStatus()));
    TlsConfig tlsConfig = tls.map(node, false);
    config.tls(tlsConfig);
    if (url == null || headers.containsValue(null) || tls.broken(node, tlsConfig)) {
      return null;
    }
    HttpRequestConfig built = problems.attempt(node.path(), config::build);
    return built == null ? null : new HttpRequestProcessor(built);
  }

  /** A store-put, store-get or store-remove processor. */
  private Processor objectStore(String kind, ConfigNode node) {
    String store = node.text("store", null);
    if (store == null) {
      problems.add(node.get("store").path(), null, "is required");
    }
    Template key = template(node, "key", null);
    Template value = node.has("value") ? template(node, "value", null) : null;
    Duration ttl = node.duration("ttl", null, LONGEST_TTL);
    ObjectStoreOptions options =
        problems.attempt(
            node.get("maxEntries").path(),
            () ->
                new ObjectStoreOptions(null, node.integer("maxEntries", 0), serializerName(node)));
    ObjectStoreProcessor.Operation operation =
        ObjectStoreProcessor.Operation.valueOf(
            kind.substring("store-".length()).toUpperCase(java.util.Locale.ROOT));
    if (store == null || key == null || options == null) {
      return null;
    }
    return problems.attempt(
        node.get("ttl").path(),
        () ->
            new ObjectStoreProcessor(
                operation, store, key, value, node.text("target", null), ttl, options));
  }

  /**
   * The named serializer {@code node} asks for ({@code serializer}), or null; remembered so the
   * application checks it is declared under serialization.serializers.
   */
  private String serializerName(ConfigNode node) {
    String name = node.text("serializer", null);
    if (name != null) {
      serializerNames.put(node.get("serializer").path(), name);
    }
    return name;
  }

  /** A batch-execute: the job must be one of the file's, its result flow one of its flows. */
  private Processor batchExecute(ConfigNode node) {
    String job = node.text("job", null);
    if (job == null) {
      problems.add(node.get("job").path(), null, "is required");
      return null;
    }
    batchJobNames.put(node.get("job").path(), job);
    String resultFlow = node.text("resultFlow", null);
    if (resultFlow != null) {
      resultFlowNames.put(node.get("resultFlow").path(), resultFlow);
    }
    Template key = node.has("key") ? template(node, "key", null) : null;
    if (node.has("key") && key == null) {
      return null;
    }
    return new BatchExecuteProcessor(
        launcher, job, node.text("target", BatchExecuteProcessor.DEFAULT_TARGET), resultFlow, key);
  }

  /** The launcher every batch-execute of the file starts its job through. */
  BatchLauncher launcher() {
    return launcher;
  }

  /** Each batch-execute's job name, by the path that names it. */
  Map<String, String> batchJobNames() {
    return batchJobNames;
  }

  /** Each batch-execute's result flow, by the path that names it. */
  Map<String, String> resultFlowNames() {
    return resultFlowNames;
  }

  /** Every named serializer a store or queue asked for, by the path that names it. */
  Map<String, String> serializerNames() {
    return serializerNames;
  }

  /** A template at {@code key} (required when {@code defaultText} is null); null if broken. */
  Template template(ConfigNode node, String key, String defaultText) {
    String text = node.text(key, defaultText);
    String path = node.get(key).path();
    if (text == null) {
      problems.add(path, null, "is required");
      return null;
    }
    return problems.attempt("", () -> Template.parse(path, text));
  }

  /** A file or directory, relative paths taken from the configuration file's directory. */
  Path path(ConfigNode node, String key) {
    String text = node.text(key, null);
    if (text == null) {
      problems.add(node.get(key).path(), null, "is required");
      return null;
    }
    try {
      return baseDirectory.resolve(text).normalize();
    } catch (InvalidPathException e) {
      problems.add(
          node.get(key).path(),
          visible(text),
          "is not a valid path: "
              + e.getReason()
              + (e.getIndex() >= 0 ? " (at character " + (e.getIndex() + 1) + ")" : ""));
      return null;
    }
  }

  /** {@code text} with its control characters written as escapes ({@code \0}), for messages. */
  private static String visible(String text) {
    StringBuilder out = new StringBuilder();
    text.chars()
        .forEach(
            c -> {
              if (c == 0) {
                out.append("\\0");
              } else if (Character.isISOControl(c)) {
                out.append(String.format("\\u%04x", c));
              } else {
                out.append((char) c);
              }
            });
    return out.toString();
  }
}
