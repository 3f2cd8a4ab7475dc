package io.sluice.http.config;

import io.sluice.config.spi.ProblemCollector;
import io.sluice.http.HttpServerConfig;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The HTTP listeners of one file, checked as {@code sluice run} would find them when it starts
 * their servers, without binding anything: listeners on one host and port share one server and must
 * give it the same settings, and a port bound on every address ({@code 0.0.0.0}) cannot be bound
 * again on one address.
 */
final class SharedListeners {

  private static final Set<String> WILDCARDS = Set.of("0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0");

  private final ProblemCollector problems;
  private final Map<String, Listener> byAddress = new LinkedHashMap<>();

  private record Listener(String path, HttpServerConfig config) {}

  SharedListeners(ProblemCollector problems) {
    this.problems = problems;
  }

  /** Records the listener at {@code path}; a problem when it conflicts with an earlier one. */
  void add(String path, HttpServerConfig config) {
    if (config.port() == 0) {
      return; // any free port: never shared
    }
    String address = config.host() + ":" + config.port();
    Listener same = byAddress.get(address);
    if (same != null) {
      List<String> differences = differences(same.config(), config);
      if (!differences.isEmpty()) {
        problems.add(
            path,
            address,
            "shares its server with the listener at "
                + where(same)
                + " but sets "
                + String.join(", ", differences)
                + " otherwise; listeners on one host and port share one server: give them the"
                + " same settings");
      }
      return;
    }
    for (Listener other : byAddress.values()) {
      if (other.config().port() == config.port()
          && (WILDCARDS.contains(other.config().host()) || WILDCARDS.contains(config.host()))) {
        problems.add(
            path,
            address,
            "cannot be bound: the listener at "
                + where(other)
                + " binds "
                + other.config().host()
                + ":"
                + other.config().port()
                + ", and a port bound on every address cannot be bound again on one; give both"
                + " the same host");
        return;
      }
    }
    byAddress.put(address, new Listener(path, config));
  }

  private String where(Listener listener) {
    return listener.path() + " (" + problems.locate(listener.path()) + ")";
  }

  /** The settings two servers' configurations differ in, each as {@code name (a vs b)}. */
  private static List<String> differences(HttpServerConfig first, HttpServerConfig second) {
    List<String> names = new ArrayList<>();
    for (RecordComponent component : HttpServerConfig.class.getRecordComponents()) {
      Object a = value(component, first);
      Object b = value(component, second);
      if (!Objects.equals(a, b)) {
        names.add(component.getName() + " (" + a + " there, " + b + " here)");
      }
    }
    return names;
  }

  private static Object value(RecordComponent component, HttpServerConfig config) {
    try {
      return component.getAccessor().invoke(config);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot read " + component.getName() + " of " + config, e);
    }
  }
}
