package io.sluice.core.serialization;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.serialization.spi.Codec;
import io.sluice.core.serialization.spi.CodecFactory;
import io.sluice.core.serialization.spi.ObjectSerializer;
import io.sluice.core.serialization.spi.SerializerFactory;
import io.sluice.core.serialization.spi.SerializerSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Makes what a {@link StoredValues.Builder} was given into stored values, every problem at once.
 */
final class StoredValuesAssembly {
  private final SerializationConfig config;
  private final List<SerializerFactory> serializerFactories;
  private final List<CodecFactory> codecFactories;
  private final ClassLoader discoveryLoader;
  private final boolean discover;

  StoredValuesAssembly(
      SerializationConfig config,
      List<SerializerFactory> serializerFactories,
      List<CodecFactory> codecFactories,
      ClassLoader discoveryLoader,
      boolean discover) {
    this.config = config;
    this.serializerFactories = serializerFactories;
    this.codecFactories = codecFactories;
    this.discoveryLoader = discoveryLoader;
    this.discover = discover;
  }

  /**
   * The stored values, or a {@link ConfigurationException} listing every problem: unknown default
   * names, bad levels, ids out of range or taken twice, names provided twice.
   */
  StoredValues build() {
    List<ConfigProblem> problems = new ArrayList<>();
    Map<String, SerializerFactory> serializerByName =
        byName(
            SerializerFactory.class,
            serializerFactories,
            SerializerFactory::name,
            "serializer",
            problems);
    Map<String, CodecFactory> codecByName =
        byName(CodecFactory.class, codecFactories, CodecFactory::name, "codec", problems);

    SerializerSettings settings = config.serializerSettings();
    Map<String, ObjectSerializer> serializers = new LinkedHashMap<>();
    Map<Integer, String> serializerIds = new TreeMap<>();
    serializerByName.forEach(
        (name, factory) -> {
          ObjectSerializer made =
              make(() -> factory.create(settings), "serializer", name, problems);
          if (made != null && checkId(made.id(), 1, name, "serializer", serializerIds, problems)) {
            serializers.put(name, made);
          }
        });
    Map<String, Codec> codecs = new LinkedHashMap<>();
    Map<Integer, String> codecIds = new TreeMap<>();
    codecByName.forEach(
        (name, factory) -> {
          Codec made =
              factory.id() >= 0
                  ? new LazyCodec(factory, name, factory.id())
                  : make(() -> factory.create(null), "codec", name, problems);
          if (made != null && checkId(made.id(), 0, name, "codec", codecIds, problems)) {
            codecs.put(name, made);
          }
        });
    Registry registry = new Registry(serializers, codecs);
    Map<String, StoredValues> views = new LinkedHashMap<>();
    if (!config.serializers().containsKey(SerializationConfig.DEFAULT_NAME)) {
      boolean fastest =
          registry.serializers.containsKey(SerializationConfig.FASTEST_SAFE_SERIALIZER)
              && registry.codecs.containsKey(SerializationConfig.FASTEST_SAFE_CODEC);
      ObjectSerializer detectedSerializer =
          registry.serializer(
              fastest
                  ? SerializationConfig.FASTEST_SAFE_SERIALIZER
                  : SerializationConfig.DEFAULT_SERIALIZER,
              "serialization.default",
              problems);
      Codec detectedCodec =
          registry.codec(
              fastest ? SerializationConfig.FASTEST_SAFE_CODEC : SerializationConfig.DEFAULT_CODEC,
              "serialization.default",
              problems);
      views.put(
          SerializationConfig.DEFAULT_NAME,
          new StoredValues(
              config,
              registry,
              detectedSerializer,
              detectedCodec,
              SerializationConfig.DEFAULT_NAME,
              null,
              true,
              views));
    }
    for (NamedSerializer s : config.serializers().values()) {
      ObjectSerializer chosen =
          registry.serializer(s.serializer(), config.path(s.name(), "type"), problems);
      Codec by = codec(codecByName, registry, s, problems);
      views.put(
          s.name(),
          new StoredValues(config, registry, chosen, by, s.name(), s.level(), false, views));
    }
    for (StoredValues view : views.values()) {
      if (view.defaultCodec() instanceof LazyCodec lazy) {
        make(
            () -> {
              lazy.makeNow();
              return lazy;
            },
            "codec",
            lazy.name(),
            problems);
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigurationException(problems);
    }
    return views.get(config.defaultName());
  }

  /** The codec of {@code s}: the installed one, or one made at its level. */
  private Codec codec(
      Map<String, CodecFactory> factories,
      Registry registry,
      NamedSerializer s,
      List<ConfigProblem> problems) {
    String path = config.path(s.name(), "codec");
    Codec installed = registry.codec(s.codec(), path, problems);
    if (installed == null || s.level() == null) {
      return installed;
    }
    String levelPath = config.path(s.name(), "level");
    try {
      Codec made = factories.get(s.codec()).create(s.level());
      if (made.id() != installed.id()) {
        problems.add(
            ConfigProblem.of(
                path,
                s.codec(),
                "made a codec with id "
                    + made.id()
                    + " at level "
                    + s.level()
                    + ", not "
                    + installed.id()));
      }
      return made;
    } catch (ConfigurationException e) {
      e.problems().forEach(p -> problems.add(ConfigProblem.of(levelPath, p.value(), p.rule())));
    } catch (RuntimeException | LinkageError e) {
      problems.add(
          ConfigProblem.of(
              levelPath, s.level(), "could not be applied to '" + s.codec() + "': " + e));
    }
    return null;
  }

  private <F> Map<String, F> byName(
      Class<F> type,
      List<F> added,
      java.util.function.Function<F, String> name,
      String kind,
      List<ConfigProblem> problems) {
    Map<String, F> found = new TreeMap<>();
    if (discover) {
      for (F factory : ServiceLoader.load(type, discoveryLoader)) {
        F previous = found.putIfAbsent(name.apply(factory), factory);
        if (previous != null) {
          problems.add(
              ConfigProblem.of(
                  "serialization",
                  name.apply(factory),
                  "is the "
                      + kind
                      + " name of both "
                      + previous.getClass().getName()
                      + " and "
                      + factory.getClass().getName()
                      + "; remove one from the class path"));
        }
      }
    }
    for (F factory : added) {
      found.put(name.apply(factory), factory);
    }
    return found;
  }

  private static <T> T make(
      java.util.function.Supplier<T> creation,
      String kind,
      String name,
      List<ConfigProblem> problems) {
    try {
      return creation.get();
    } catch (ConfigurationException e) {
      problems.addAll(e.problems());
    } catch (RuntimeException | LinkageError e) {
      problems.add(
          ConfigProblem.of(
              "serialization", name, "is an installed " + kind + " that could not be made: " + e));
    }
    return null;
  }

  private static boolean checkId(
      int id,
      int min,
      String name,
      String kind,
      Map<Integer, String> taken,
      List<ConfigProblem> problems) {
    if (id < min || id > 255) {
      problems.add(
          ConfigProblem.of(
              "serialization", name, "has " + kind + " id " + id + ", outside " + min + "-255"));
      return false;
    }
    String other = taken.putIfAbsent(id, name);
    if (other != null) {
      problems.add(
          ConfigProblem.of(
              "serialization",
              name,
              "has " + kind + " id " + id + ", already the id of '" + other + "'"));
      return false;
    }
    return true;
  }
}
