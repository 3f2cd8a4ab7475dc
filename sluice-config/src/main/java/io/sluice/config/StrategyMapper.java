package io.sluice.config;

import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.ProblemCollector;
import io.sluice.core.ExhaustedAction;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Maps processing strategies and threading profiles: those of {@code threading:} (named profiles
 * and strategies, declared once and referenced by name, and the defaults of the file, as Mule's
 * {@code <configuration>} declares a default threading profile and processing strategy) and those
 * of each flow, written in place or naming one of {@code threading:}.
 *
 * <p>Every profile of the file starts from the default profile: a key it leaves out takes the
 * default profile's value, and a stage whose profile is left out takes the default profile whole. A
 * named profile or strategy is built once, where it is declared; a broken one is reported there,
 * not at each flow that names it.
 */
final class StrategyMapper {

  /** The strategies a flow may name without declaring them: each kind with its defaults. */
  static final Set<String> BUILT_IN = Set.of("synchronous", "staged", "auto");

  private final ProblemCollector problems;
  private ThreadingProfile defaultProfile = ThreadingProfile.DEFAULT;
  private ProcessingStrategy defaultStrategy = ProcessingStrategy.defaultStrategy();
  // Name to profile or strategy; a name whose declaration is broken maps to null.
  private final Map<String, ThreadingProfile> profiles = new LinkedHashMap<>();
  private final Map<String, ProcessingStrategy> strategies = new LinkedHashMap<>();
  private boolean defaultBroken;

  /** Where each named serializer a persistent staged flow asks for is named: path to name. */
  private final Map<String, String> serializerNames = new LinkedHashMap<>();

  StrategyMapper(ProblemCollector problems) {
    this.problems = problems;
  }

  /** Every named serializer a persistent staged flow asked for, by the path that names it. */
  Map<String, String> serializerNames() {
    return serializerNames;
  }

  /**
   * Reads {@code threading:}: the default profile first (every other profile starts from it), then
   * the named profiles, the named strategies and the default strategy, which may name them.
   */
  void declare(ConfigNode threading) {
    ConfigNode named = threading.get("profiles");
    ConfigNode byDefault = threading.get("defaultProfile");
    String defaultName = byDefault.node().isTextual() ? byDefault.node().asText() : null;
    if (defaultName != null) {
      if (!has(named, defaultName)) {
        missing(byDefault, "threading profile", "threading.profiles", names(named));
        defaultProfile = null;
      } else {
        defaultProfile = inline(named.get(defaultName), ThreadingProfile.DEFAULT);
        profiles.put(defaultName, defaultProfile);
      }
    } else if (byDefault.isPresent()) {
      defaultProfile = inline(byDefault, ThreadingProfile.DEFAULT);
    }
    defaultBroken = defaultProfile == null;
    for (String name : names(named)) {
      if (!name.equals(defaultName)) {
        profiles.put(name, inline(named.get(name), base()));
      }
    }
    ConfigNode declared = threading.get("strategies");
    for (String name : names(declared)) {
      ConfigNode strategy = declared.get(name);
      if (BUILT_IN.contains(name)) {
        problems.add(
            strategy.path(),
            name,
            "is the name of a built-in strategy, which a flow names for its defaults; choose"
                + " another name");
        strategies.put(name, null);
      } else {
        strategies.put(name, strategy.node().isObject() ? inline(strategy) : null);
      }
    }
    ConfigNode strategy = threading.get("defaultStrategy");
    if (strategy.isPresent()) {
      defaultStrategy = strategy(strategy);
    }
  }

  /**
   * The strategy of a flow: {@code threading.defaultStrategy} when absent, a named one when a name,
   * else the one written; null after recording a problem.
   */
  ProcessingStrategy strategy(ConfigNode node) {
    if (!node.isPresent()) {
      return defaultStrategy;
    }
    if (node.node().isTextual()) {
      return strategyNamed(node);
    }
    return inline(node);
  }

  private ProcessingStrategy strategyNamed(ConfigNode node) {
    String name = node.node().asText();
    if (strategies.containsKey(name)) {
      return strategies.get(name);
    }
    ThreadingProfile base = base();
    return switch (name) {
      case "synchronous" -> defaultBroken ? null : new ProcessingStrategy.Synchronous(base, base);
      case "staged" ->
          defaultBroken ? null : new ProcessingStrategy.Staged(base, base, base, false, null, base);
      case "auto" -> ProcessingStrategy.Auto.DEFAULT;
      default -> {
        problems.add(
            node.path(),
            name,
            "names no processing strategy; the built-in ones are synchronous, staged and auto, "
                + (strategies.isEmpty()
                    ? "and none is declared under threading.strategies"
                    : "and the ones declared under threading.strategies are "
                        + String.join(", ", strategies.keySet())));
        yield null;
      }
    };
  }

  /** A strategy written as a map of one kind; null after recording a problem. */
  private ProcessingStrategy inline(ConfigNode node) {
    Map.Entry<String, ConfigNode> kind = node.single();
    if (kind == null) {
      return null;
    }
    ConfigNode s = kind.getValue();
    return switch (kind.getKey()) {
      case "synchronous" -> {
        ThreadingProfile receiver = profile(s.get("receiver"));
        ThreadingProfile async = profile(s.get("async"));
        yield receiver == null || async == null
            ? null
            : new ProcessingStrategy.Synchronous(receiver, async);
      }
      case "staged" -> {
        ThreadingProfile receiver = profile(s.get("receiver"));
        ThreadingProfile flow = profile(s.get("flow"));
        ThreadingProfile dispatcher = profile(s.get("dispatcher"));
        ThreadingProfile async = profile(s.get("async"));
        boolean persistent = s.bool("persistent", false);
        String serializer = s.text("serializer", null);
        if (serializer != null) {
          serializerNames.put(s.get("serializer").path(), serializer);
        }
        yield receiver == null || flow == null || dispatcher == null || async == null
            ? null
            : problems.attempt(
                s.path(),
                () ->
                    new ProcessingStrategy.Staged(
                        receiver, flow, dispatcher, persistent, serializer, async));
      }
      case "auto" -> {
        ProcessingStrategy.Auto d = ProcessingStrategy.Auto.DEFAULT;
        int maxInFlight = s.integer("maxInFlight", d.maxInFlight());
        ExhaustedAction backpressure =
            s.enumValue("backpressure", ExhaustedAction.class, d.backpressure());
        Duration waitTimeout = s.duration("waitTimeout", d.waitTimeout());
        int initialLimit = s.integer("initialLimit", d.initialLimit());
        int maxLimit = s.integer("maxLimit", d.maxLimit());
        yield problems.attempt(
            s.path(),
            () ->
                new ProcessingStrategy.Auto(
                    maxInFlight, backpressure, waitTimeout, initialLimit, maxLimit));
      }
      default -> {
        problems.add(s.path(), kind.getKey(), "is not a strategy; use synchronous, staged or auto");
        yield null;
      }
    };
  }

  /**
   * The profile of a stage: the default profile when absent, a named one when a name, else the one
   * written, on top of the default profile; null after recording a problem (or when the default it
   * needs is broken, which was reported).
   */
  private ThreadingProfile profile(ConfigNode node) {
    if (!node.isPresent()) {
      return defaultProfile;
    }
    if (node.node().isTextual()) {
      String name = node.node().asText();
      if (!profiles.containsKey(name)) {
        missing(node, "threading profile", "threading.profiles", profiles.keySet());
        return null;
      }
      return profiles.get(name);
    }
    ThreadingProfile built = inline(node, base());
    return defaultBroken ? null : built;
  }

  /** The profile written at {@code node}, its keys left out taken from {@code base}. */
  private ThreadingProfile inline(ConfigNode node, ThreadingProfile base) {
    ThreadingProfile.Builder profile =
        base.toBuilder()
            .maxThreadsActive(node.integer("maxThreadsActive", base.maxThreadsActive()))
            .maxThreadsIdle(node.integer("maxThreadsIdle", base.maxThreadsIdle()))
            .maxQueue(node.integer("maxQueue", base.maxQueue()))
            .exhaustedAction(
                node.enumValue("exhaustedAction", ExhaustedAction.class, base.exhaustedAction()))
            .waitTimeout(node.duration("waitTimeout", base.waitTimeout()))
            .idleTtl(node.duration("idleTtl", base.idleTtl()));
    return problems.attempt(node.path(), profile::build);
  }

  /** The default profile, or the built-in one in its place while it is broken (reported). */
  private ThreadingProfile base() {
    return defaultProfile != null ? defaultProfile : ThreadingProfile.DEFAULT;
  }

  private void missing(ConfigNode node, String what, String section, Iterable<String> declared) {
    List<String> names = new ArrayList<>();
    declared.forEach(names::add);
    problems.add(
        node.path(),
        node.node().asText(),
        "names no "
            + what
            + "; "
            + (names.isEmpty()
                ? "none is declared under " + section
                : "the ones declared under " + section + " are " + String.join(", ", names)));
  }

  private static boolean has(ConfigNode map, String name) {
    return map.node().isObject() && map.node().has(name);
  }

  private static List<String> names(ConfigNode map) {
    List<String> names = new ArrayList<>();
    if (map.node().isObject()) {
      map.node().fieldNames().forEachRemaining(names::add);
    }
    return names;
  }
}
