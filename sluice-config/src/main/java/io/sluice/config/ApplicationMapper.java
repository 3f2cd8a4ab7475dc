package io.sluice.config;

import io.sluice.config.spi.ComponentKind;
import io.sluice.config.spi.ConfigComponent;
import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProblemCollector;
import io.sluice.config.spi.SectionComponent;
import io.sluice.config.spi.StoreComponent;
import io.sluice.config.spi.TransactionalNames;
import io.sluice.config.spi.UniqueNames;
import io.sluice.core.ConfigurationException;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.flow.OnError;
import io.sluice.core.serialization.NamedSerializer;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Source;
import io.sluice.core.store.StorageConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Maps a configuration tree that passed (or failed) the schema to an application builder and the
 * sections of the file; it is the {@link MappingContext} the components of the file are given.
 */
final class ApplicationMapper implements MappingContext {

  private final ComponentRegistry registry;
  private final ProcessorMapper processorMapper;
  private final StrategyMapper strategyMapper;
  private final FlowMapper flowMapper;
  private final ProblemCollector problems;
  private final ClassLoader componentLoader;
  private final Path baseDirectory;
  private final Map<Class<?>, Object> shared = new HashMap<>();

  /** Where each named serializer a store or queue asks for is named: path to name. */
  private final Map<String, String> serializerNames = new LinkedHashMap<>();

  private final UniqueNames flowNames;

  ApplicationMapper(
      ComponentRegistry registry,
      Path baseDirectory,
      ClassLoader componentLoader,
      ProblemCollector problems) {
    this.registry = registry;
    this.problems = problems;
    this.baseDirectory = baseDirectory;
    this.componentLoader = componentLoader;
    this.processorMapper = new ProcessorMapper(registry, this);
    this.strategyMapper = new StrategyMapper(problems);
    this.flowMapper = new FlowMapper(registry, this, processorMapper, strategyMapper);
    this.flowNames = new UniqueNames("flow", problems);
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
    if (storage != null && !registry.stores().get(storage.type()).durable()) {
      registry.sections().stream()
          .filter(section -> section.needsDurableStore() != null)
          .filter(section -> at(root, section.key()).isPresent())
          .findFirst()
          .ifPresent(
              section ->
                  problems.add(
                      sluice.get("store").get("type").path(),
                      storage.type(),
                      section.needsDurableStore() + "; use " + durableStores()));
    }
    serialization(root.get("serialization"), application);
    strategyMapper.declare(root.get("threading"));
    // Every name first, so a flow-ref may name a flow written after it.
    root.items("flows").forEach(flowNames::add);
    for (ConfigNode node : root.items("flows")) {
      Flow flow = flowMapper.flow(node);
      if (flow != null) {
        application.flow(flow);
      }
    }
    Map<Class<?>, Object> sections = new LinkedHashMap<>();
    for (SectionComponent<?> section : registry.sections()) {
      Object mapped = section.map(at(root, section.key()), this);
      if (mapped != null) {
        sections.put(section.type(), mapped);
      }
    }
    checkSerializerNames(root.get("serialization"));
    // The data sources a try's transaction names are known once the sections are mapped.
    shared(TransactionalNames.class, TransactionalNames::new).check(problems);
    return new Configuration(application, sections);
  }

  /** The installed store types that survive a restart, the default one said so. */
  private String durableStores() {
    String implied = StorageConfig.impliedType(null);
    List<String> durable =
        registry.stores().values().stream()
            .filter(StoreComponent::durable)
            .map(s -> s.key().equals(implied) ? s.key() + " (the default)" : s.key())
            .toList();
    return ComponentRegistry.either(durable, " or ");
  }

  /** The node at the dotted {@code key} ({@code sluice.jobs}) under {@code root}. */
  private static ConfigNode at(ConfigNode root, String key) {
    ConfigNode node = root;
    for (String part : key.split("\\.")) {
      node = node.get(part);
    }
    return node;
  }

  @Override
  public ProblemCollector problems() {
    return problems;
  }

  @Override
  public Path baseDirectory() {
    return baseDirectory;
  }

  @Override
  public ClassLoader componentLoader() {
    return componentLoader;
  }

  @Override
  public List<Processor> processors(ConfigNode parent, String key) {
    return processorMapper.processors(parent, key);
  }

  @Override
  public List<OnError> errorHandler(ConfigNode parent, String key) {
    return processorMapper.errorHandler(parent, key);
  }

  @Override
  public Source source(ConfigNode node) {
    return flowMapper.source(node);
  }

  @Override
  public Processor processor(String kind, ConfigNode node) {
    return processorMapper.embedded(kind, node);
  }

  @Override
  public List<String> componentKeys(ComponentKind kind) {
    return registry.keys(kind);
  }

  @Override
  public Object component(ComponentKind kind, String key, ConfigNode node) {
    ConfigComponent<?> component =
        kind == ComponentKind.BATCH_INPUT ? registry.batchInputs().get(key) : null;
    if (component == null) {
      problems.add(
          node.path(),
          key,
          "is not a "
              + kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
              + " kind installed here; installed: "
              + String.join(", ", registry.keys(kind)));
      return null;
    }
    return component.map(node, this);
  }

  @Override
  public String serializerName(ConfigNode node) {
    String name = node.text("serializer", null);
    if (name != null) {
      serializerNames.put(node.get("serializer").path(), name);
    }
    return name;
  }

  @Override
  public <T> T shared(Class<T> type, Supplier<T> make) {
    return type.cast(shared.computeIfAbsent(type, t -> make.get()));
  }

  @Override
  public Set<String> flowNames() {
    return flowNames.names();
  }

  @Override
  public void secret(String value) {
    Secrets.register(value);
  }

  /**
   * The store of {@code sluice.store:} (embedded SQLite under {@code data} when absent), mapped by
   * the component of its type; null when it is broken or its type is not installed.
   */
  private StorageConfig store(ConfigNode node, Application.Builder application) {
    String type = node.text("type", null);
    boolean written = type != null;
    if (!written) {
      type = StorageConfig.impliedType(node.text("url", null));
    }
    StoreComponent component = registry.stores().get(type);
    if (component == null) {
      // A type written but unknown is reported by the schema, with the installed ones, at its line.
      if (!written) {
        problems.add(
            node.get("type").path(),
            type,
            "is the store type by default, and it is not installed: the module that provides it"
                + " is not on the class path; installed store types: "
                + String.join(", ", registry.stores().keySet()));
      }
      return null;
    }
    StorageConfig built = component.map(node, this);
    if (built != null) {
      application.storage(built);
    }
    return built;
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
    named.putAll(serializerNames);
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
