package io.sluice.config.spi;

import io.sluice.core.expression.Template;
import io.sluice.core.flow.OnError;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Source;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What a component mapping one file's configuration is given: the file's problem collector, where
 * relative paths start, the class loader of user classes, the mapping of nested sources and
 * processor lists, and state shared by the components of the file.
 */
public interface MappingContext {

  /** Where every problem of the file is recorded, with its path, value, rule and line. */
  ProblemCollector problems();

  /** The configuration file's directory, which relative paths are taken from. */
  Path baseDirectory();

  /** The class loader of user classes ({@code component} classes, job handlers). */
  ClassLoader componentLoader();

  /** The processors of list {@code key} of {@code parent}; the broken ones are left out. */
  List<Processor> processors(ConfigNode parent, String key);

  /**
   * The error branches of list {@code key} of {@code parent} ({@code onErrorContinue}, {@code
   * onErrorPropagate}, as a flow's {@code errorHandler}); the broken ones are left out.
   */
  List<OnError> errorHandler(ConfigNode parent, String key);

  /**
   * The processor {@code node} describes as the processor component {@code kind} (a {@code read:}
   * inside a source), or null when it is broken or no module brings that component (a problem says
   * so).
   */
  Processor processor(String kind, ConfigNode node);

  /**
   * {@code source} as it is, or, when its node {@code sourceNode} has {@code read:}, handing every
   * message through that {@code read} processor first (parsed data, as a source is told to hand
   * over); null when the read is broken.
   */
  default Source parsedFirst(Source source, ConfigNode sourceNode) {
    if (source == null || sourceNode.node() == null || !sourceNode.node().has("read")) {
      return source;
    }
    Processor read = processor("read", sourceNode.get("read"));
    return read == null ? null : new FirstThrough(source, read);
  }

  /** The source {@code node} declares (one key naming its kind), or null when broken or absent. */
  Source source(ConfigNode node);

  /**
   * The keys of the components of {@code kind} found on the class path, in their order (the batch
   * input kinds other modules bring, for the batch section that writes them under {@code input:}).
   */
  List<String> componentKeys(ComponentKind kind);

  /**
   * What the component of {@code kind} written as {@code key} maps {@code node} to (a batch input),
   * or null when it is broken (its problems recorded at their paths) or no module brings it (a
   * problem says so). For a section holding components of a kind the reader does not place itself.
   */
  Object component(ComponentKind kind, String key, ConfigNode node);

  /**
   * The named serializer {@code node} asks for ({@code serializer}), or null; the file checks it is
   * declared under {@code serialization.serializers}.
   */
  String serializerName(ConfigNode node);

  /**
   * The one object of {@code type} shared by the components of this file (the HTTP listeners that
   * may share a server, the batch jobs' launcher), made by {@code make} when first asked for.
   */
  <T> T shared(Class<T> type, Supplier<T> make);

  /** The names of the file's flows; complete once the flows are mapped, as sections are. */
  Set<String> flowNames();

  /**
   * Registers {@code value} (a password a component was given) as secret, as a {@code
   * ${secret:...}} value is: masked wherever Sluice shows text (the problems of the file, the
   * command's log and output, {@code /metrics}), whether it was written or came from a placeholder.
   */
  void secret(String value);

  /** A template at {@code key} (required when {@code defaultText} is null); null if broken. */
  default Template template(ConfigNode node, String key, String defaultText) {
    String text = node.text(key, defaultText);
    String path = node.get(key).path();
    if (text == null) {
      problems().add(path, null, "is required");
      return null;
    }
    return problems().attempt("", () -> Template.parse(path, text));
  }

  /** A file or directory, relative paths taken from the configuration file's directory. */
  default Path path(ConfigNode node, String key) {
    String text = node.text(key, null);
    if (text == null) {
      problems().add(node.get(key).path(), null, "is required");
      return null;
    }
    try {
      return baseDirectory().resolve(text).normalize();
    } catch (InvalidPathException e) {
      problems()
          .add(
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
