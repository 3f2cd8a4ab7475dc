package io.sluice.config;

import io.sluice.core.Application;
import io.sluice.core.ConfigurationException;
import io.sluice.core.Flow;
import io.sluice.core.serialization.NamedSerializer;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Maps a configuration tree that passed (or failed) the schema to an application builder. */
final class ApplicationMapper {

  private final FlowMapper flowMapper;
  private final ProblemCollector problems;
  private final ClassLoader componentLoader;

  ApplicationMapper(Path baseDirectory, ClassLoader componentLoader, ProblemCollector problems) {
    this.problems = problems;
    this.componentLoader = componentLoader;
    this.flowMapper =
        new FlowMapper(new ProcessorMapper(baseDirectory, componentLoader, problems), problems);
  }

  /** The builder; it is only valid when no problem was recorded. */
  Application.Builder map(ConfigNode root) {
    Application.Builder application = Application.builder();
    ConfigNode sluice = root.get("sluice");
    if (sluice.has("shutdownTimeout")) {
      application.shutdownTimeout(sluice.duration("shutdownTimeout", null));
    }
    if (sluice.has("vmQueueCapacity")) {
      application.vmQueueCapacity(sluice.integer("vmQueueCapacity", 1000));
    }
    serialization(root.get("serialization"), application);
    Map<String, String> firstFlowPath = new HashMap<>();
    for (ConfigNode node : root.items("flows")) {
      String name = node.text("name", null);
      ConfigNode nameNode = node.get("name");
      String earlier = name == null ? null : firstFlowPath.putIfAbsent(name, nameNode.path());
      if (earlier != null) {
        problems.add(
            nameNode.path(),
            name,
            "must be unique; the flow at "
                + earlier
                + " ("
                + problems.locate(earlier)
                + ") has this name too");
      }
      Flow flow = flowMapper.flow(node);
      if (flow != null) {
        application.flow(flow);
      }
    }
    return application;
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
                        one.text("codec", "none"),
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
