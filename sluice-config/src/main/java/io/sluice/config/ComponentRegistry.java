package io.sluice.config;

import io.sluice.config.builtin.CoreComponents;
import io.sluice.config.spi.ComponentKind;
import io.sluice.config.spi.ComponentProvider;
import io.sluice.config.spi.ConfigComponent;
import io.sluice.config.spi.ProcessorComponent;
import io.sluice.config.spi.SectionComponent;
import io.sluice.config.spi.SourceComponent;
import io.sluice.config.spi.StoreComponent;
import io.sluice.core.SluiceException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The components found on the class path ({@link ServiceLoader} of {@link ComponentProvider}): the
 * core's first, then each other provider's by the provider's class name, each in its own order. The
 * configuration knows no component by name: its schema and its mapping come from here.
 */
final class ComponentRegistry {

  /** The components of the class path this class was loaded from. */
  static final ComponentRegistry INSTANCE = load(ComponentRegistry.class.getClassLoader());

  private final List<ConfigComponent<?>> all;
  private final Map<String, SourceComponent> sources = new LinkedHashMap<>();
  private final Map<String, ProcessorComponent> processors = new LinkedHashMap<>();
  private final List<SectionComponent<?>> sections = new ArrayList<>();
  private final Map<String, StoreComponent> stores = new LinkedHashMap<>();
  private final Map<String, ConfigComponent<?>> batchInputs = new LinkedHashMap<>();

  ComponentRegistry(List<ConfigComponent<?>> components) {
    this.all = List.copyOf(components);
    Map<String, ConfigComponent<?>> byPlace = new LinkedHashMap<>();
    for (ConfigComponent<?> component : components) {
      String place = place(component);
      ConfigComponent<?> earlier = byPlace.putIfAbsent(place, component);
      if (earlier != null) {
        throw new SluiceException(
            "two components claim the "
                + component.kind().name().toLowerCase(java.util.Locale.ROOT)
                + " key "
                + component.key()
                + ": "
                + earlier.getClass().getName()
                + " and "
                + component.getClass().getName());
      }
      switch (component) {
        case SourceComponent source -> sources.put(source.key(), source);
        case ProcessorComponent processor -> processors.put(processor.key(), processor);
        case SectionComponent<?> section -> sections.add(section);
        case StoreComponent store -> stores.put(store.key(), store);
        case ConfigComponent<?> input when input.kind() == ComponentKind.BATCH_INPUT ->
            batchInputs.put(input.key(), input);
        default ->
            throw new SluiceException(
                component.getClass().getName()
                    + " is a "
                    + component.kind()
                    + " component, which configuration files cannot hold yet");
      }
    }
    // The sections of sluice: first, as they are written first.
    sections.sort(Comparator.comparing(s -> s.key().startsWith("sluice.") ? 0 : 1));
    // The store types that keep what they hold first, the core's memory after them.
    List<StoreComponent> byDurability = new ArrayList<>(stores.values());
    byDurability.sort(Comparator.comparing(s -> s.durable() ? 0 : 1));
    stores.clear();
    byDurability.forEach(s -> stores.put(s.key(), s));
  }

  static ComponentRegistry load(ClassLoader loader) {
    List<ComponentProvider> providers = new ArrayList<>();
    ServiceLoader.load(ComponentProvider.class, loader).forEach(providers::add);
    providers.sort(
        Comparator.comparing((ComponentProvider p) -> p instanceof CoreComponents ? 0 : 1)
            .thenComparing(p -> p.getClass().getName()));
    List<ConfigComponent<?>> components = new ArrayList<>();
    providers.forEach(p -> components.addAll(p.components()));
    return new ComponentRegistry(components);
  }

  private static String place(ConfigComponent<?> component) {
    return switch (component.kind()) {
      case PROCESSOR, ROUTER -> ComponentKind.PROCESSOR + ":" + component.key();
      default -> component.kind() + ":" + component.key();
    };
  }

  /** Every component, in order. */
  List<ConfigComponent<?>> all() {
    return all;
  }

  /** The sources by key, in order. */
  Map<String, SourceComponent> sources() {
    return sources;
  }

  /** The processors and routers by key, in order. */
  Map<String, ProcessorComponent> processors() {
    return processors;
  }

  /** The sections, those of {@code sluice:} first. */
  List<SectionComponent<?>> sections() {
    return sections;
  }

  /** The store types by name, those that survive a restart first. */
  Map<String, StoreComponent> stores() {
    return stores;
  }

  /** The batch input kinds other modules bring, by key, in order. */
  Map<String, ConfigComponent<?>> batchInputs() {
    return batchInputs;
  }

  /** The keys of the components of {@code kind}, in order. */
  List<String> keys(ComponentKind kind) {
    return all.stream()
        .filter(
            c ->
                c.kind() == kind
                    || kind == ComponentKind.PROCESSOR && c.kind() == ComponentKind.ROUTER)
        .map(ConfigComponent::key)
        .toList();
  }

  /** {@code a, b or c}: the keys, for messages and descriptions. */
  static String either(List<String> keys, String lastSeparator) {
    if (keys.size() <= 1) {
      return String.join("", keys);
    }
    return String.join(", ", keys.subList(0, keys.size() - 1)) + lastSeparator + keys.getLast();
  }
}
