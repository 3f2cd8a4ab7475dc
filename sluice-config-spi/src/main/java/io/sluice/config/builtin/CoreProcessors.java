package io.sluice.config.builtin;

import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProblemCollector;
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
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.event.Level;

/** Maps the core's processors and its async scope. */
final class CoreProcessors {

  /** How long vm-publish and vm-request wait unless {@code timeout} says. */
  static final Duration DEFAULT_VM_TIMEOUT = Duration.ofSeconds(30);

  /** The longest life of an object store entry: ten years. */
  static final Duration LONGEST_TTL = Duration.ofDays(3650);

  private CoreProcessors() {}

  static Processor logger(ConfigNode node, MappingContext context) {
    Template message = context.template(node, "message", "#[payload]");
    Level level = node.enumValue("level", Level.class, Level.INFO);
    return message == null
        ? null
        : new LoggerProcessor(message, level, node.text("category", null));
  }

  static Processor setPayload(ConfigNode node, MappingContext context) {
    Template value = context.template(node, "value", null);
    return value == null ? null : new SetPayloadProcessor(value);
  }

  static Processor setVariable(ConfigNode node, MappingContext context) {
    Template value = context.template(node, "value", null);
    String name = node.text("name", null);
    return value == null || name == null ? null : new SetVariableProcessor(name, value);
  }

  static Processor expression(ConfigNode node, MappingContext context) {
    ProcessingType type =
        node.enumValue("processingType", ProcessingType.class, ProcessingType.CPU_LITE);
    Expression expression =
        context
            .problems()
            .attempt(
                "",
                () ->
                    Expression.compile(
                        node.get("expression").path(), node.text("expression", null)));
    return expression == null
        ? null
        : new ExpressionProcessor(expression, node.text("target", null), type);
  }

  static Processor component(ConfigNode node, MappingContext context) {
    String className = node.text("class", null);
    if (className == null) {
      context.problems().add(node.get("class").path(), null, "is required");
      return null;
    }
    ProcessingType type = node.enumValue("processingType", ProcessingType.class, null);
    String method = node.text("method", null);
    return context
        .problems()
        .attempt(
            "",
            () ->
                JavaComponentProcessor.load(
                    node.path(), className, method, type, context.componentLoader()));
  }

  static Processor async(ConfigNode node, MappingContext context) {
    return new AsyncScope(context.processors(node, "processors"));
  }

  /** A vm-publish, or a vm-request when {@code request}. */
  static Processor vmPublish(ConfigNode node, MappingContext context, boolean request) {
    ProblemCollector problems = context.problems();
    String queue = node.text("queue", null);
    Duration timeout = node.duration("timeout", DEFAULT_VM_TIMEOUT);
    if (queue == null) {
      problems.add(node.get("queue").path(), null, "is required");
      return null;
    }
    boolean persistent = node.bool("persistent", false);
    String serializer = context.serializerName(node);
    return problems.attempt(
        node.get(serializer != null && !persistent ? "serializer" : "persistent").path(),
        () -> new VmPublishProcessor(queue, request, timeout, persistent, serializer));
  }

  static Processor fileWrite(ConfigNode node, MappingContext context) {
    Path directory = context.path(node, "directory");
    Template fileName = context.template(node, "fileName", "#[attributes.fileName]");
    WriteMode mode = node.enumValue("mode", WriteMode.class, WriteMode.OVERWRITE);
    return directory == null || fileName == null
        ? null
        : new FileWriteProcessor(directory, fileName, mode);
  }

  /** A store-put, store-get or store-remove processor. */
  static Processor objectStore(
      ConfigNode node, MappingContext context, ObjectStoreProcessor.Operation operation) {
    ProblemCollector problems = context.problems();
    String store = node.text("store", null);
    if (store == null) {
      problems.add(node.get("store").path(), null, "is required");
    }
    Template key = context.template(node, "key", null);
    Template value = node.has("value") ? context.template(node, "value", null) : null;
    Duration ttl = node.duration("ttl", null, LONGEST_TTL);
    ObjectStoreOptions options =
        problems.attempt(
            node.get("maxEntries").path(),
            () ->
                new ObjectStoreOptions(
                    null, node.integer("maxEntries", 0), context.serializerName(node)));
    if (store == null || key == null || options == null) {
      return null;
    }
    return problems.attempt(
        node.get("ttl").path(),
        () ->
            new ObjectStoreProcessor(
                operation, store, key, value, node.text("target", null), ttl, options));
  }
}
