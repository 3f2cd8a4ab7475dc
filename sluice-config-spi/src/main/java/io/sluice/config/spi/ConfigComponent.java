package io.sluice.config.spi;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * A component of configuration files: its key, its kind, the JSON Schema fragment that describes
 * its keys and how its configuration node becomes the runtime object. A module offers its
 * components through a {@link ComponentProvider}; the configuration reader finds them with {@link
 * java.util.ServiceLoader} and knows none by name.
 *
 * @param <T> what the component's configuration is mapped to
 */
public interface ConfigComponent<T> {

  /**
   * The key the component is written under: {@code file}, {@code logger}; for a {@link
   * ComponentKind#SECTION} its dotted place in the file ({@code sluice.jobs}, {@code batch}).
   */
  String key();

  /** Where the component is written. */
  ComponentKind kind();

  /**
   * The schema of the component's value, with a description for every key (its defaults may come
   * from {@link #defaults()}); a {@code $defs} member it holds is moved to the assembled schema's
   * own {@code $defs}, which its {@code $ref}s name as {@code #/$defs/name}. By default the
   * resource {@code <key>.schema.json} beside the component's class.
   */
  default JsonNode schema() {
    return SchemaFragments.read(getClass(), key() + ".schema.json");
  }

  /**
   * The defaults the schema shows that come from the Java builders, so that there is one place for
   * each: a JSON pointer into {@link #schema()} (or {@code /$defs/...}) to the value, a {@link
   * java.time.Duration}, {@link ByteSize}, number, boolean, enum constant, list or text.
   */
  default Map<String, Object> defaults() {
    return Map.of();
  }

  /**
   * The runtime object {@code node} describes, or null when it is broken: every problem is recorded
   * in {@link MappingContext#problems()}, at the path of the key it is about, and mapping goes on.
   */
  T map(ConfigNode node, MappingContext context);
}
