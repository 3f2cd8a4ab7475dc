package io.sluice.formats;

import io.sluice.core.ConfigProblems;
import io.sluice.core.ConfigurationException;
import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A processor that builds a new structure from a template: maps and lists, nested, whose leaves are
 * literals (texts, numbers, booleans, null) or texts with {@code #[...]} expressions. A leaf that
 * is one expression and nothing else ({@code "#[payload.order.total]"}) takes the expression's
 * value with its type (a number, a list, a map); one that mixes text and expressions becomes a
 * text. Every expression is compiled when the processor is made, so a bad one is a configuration
 * error naming its place in the template.
 *
 * <pre>{@code
 * TransformProcessor.of(Map.of(
 *     "id", "#[payload.order.id]",
 *     "firstSku", "#[payload.order.items[0].sku]",
 *     "label", "order #[payload.order.id]"))
 * }</pre>
 */
public final class TransformProcessor implements Processor {

  /** Where the auto strategy runs a transform unless said otherwise (as a read). */
  public static final ProcessingType DEFAULT_PROCESSING_TYPE = ReadConfig.DEFAULT_PROCESSING_TYPE;

  private final Node template;
  private final String target;
  private final ProcessingType processingType;

  private TransformProcessor(Node template, String target, ProcessingType processingType) {
    this.template = template;
    this.target = target;
    this.processingType = Objects.requireNonNull(processingType, "processingType");
  }

  /** A transform of {@code template} into the payload; its problems are named under "template". */
  public static TransformProcessor of(Object template) {
    return of("template", template, null, DEFAULT_PROCESSING_TYPE);
  }

  /**
   * A transform of {@code template} (a map, list, text or literal, nested) into the variable {@code
   * target} (the payload when null). Every problem of the template is reported at once, each at its
   * place below {@code path} ({@code template.order.items[1]}), as a {@link
   * ConfigurationException}.
   */
  public static TransformProcessor of(
      String path, Object template, String target, ProcessingType processingType) {
    ConfigProblems problems = new ConfigProblems();
    problems.check(
        target == null || !target.isBlank(), "target", target, "must be a variable name");
    Node compiled = compile(path, template, problems);
    problems.throwIfAny();
    return new TransformProcessor(compiled, target, processingType);
  }

  private static Node compile(String path, Object value, ConfigProblems problems) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Node> entries = new LinkedHashMap<>();
      map.forEach(
          (key, child) ->
              entries.put(String.valueOf(key), compile(path + "." + key, child, problems)));
      return new MapNode(entries);
    }
    if (value instanceof List<?> list) {
      List<Node> items = new ArrayList<>();
      for (int i = 0; i < list.size(); i++) {
        items.add(compile(path + "[" + i + "]", list.get(i), problems));
      }
      return new ListNode(items);
    }
    if (value instanceof String text) {
      try {
        Template parsed = Template.parse(path, text);
        if (!parsed.isDynamic()) {
          return new Literal(text);
        }
        // Plain paths (payload.order.items[0].sku) are walked without JEXL by the expressions
        // themselves (Expression's shortcut).
        return new ExpressionLeaf(parsed);
      } catch (ConfigurationException e) {
        e.problems().forEach(problems::add);
        return new Literal(null);
      }
    }
    if (value == null
        || value instanceof Number
        || value instanceof Boolean
        || value instanceof Character) {
      return new Literal(value);
    }
    problems.check(
        false,
        path,
        value,
        "must be a map, a list, a text or a number or boolean, not a "
            + value.getClass().getName());
    return new Literal(null);
  }

  @Override
  public Message process(Message message) {
    Object value = template.build(message);
    return target == null ? message.withPayload(value) : message.withVariable(target, value);
  }

  @Override
  public ProcessingType processingType() {
    return processingType;
  }

  @Override
  public String name() {
    return "transform";
  }

  /** A compiled part of the template. */
  private sealed interface Node permits MapNode, ListNode, ExpressionLeaf, Literal {
    Object build(Message message);
  }

  private record MapNode(Map<String, Node> entries) implements Node {
    @Override
    public Object build(Message message) {
      Map<String, Object> out = new LinkedHashMap<>(entries.size() * 2);
      entries.forEach((key, node) -> out.put(key, node.build(message)));
      return out;
    }
  }

  private record ListNode(List<Node> items) implements Node {
    @Override
    public Object build(Message message) {
      List<Object> out = new ArrayList<>(items.size());
      for (Node item : items) {
        out.add(item.build(message));
      }
      return out;
    }
  }

  private record ExpressionLeaf(Template template) implements Node {
    @Override
    public Object build(Message message) {
      return template.evaluate(message);
    }
  }

  private record Literal(Object value) implements Node {
    @Override
    public Object build(Message message) {
      // a literal map or list is never shared between results: only scalars are literals
      return value;
    }
  }

  @Override
  public String toString() {
    return "transform" + (target == null ? "" : " into " + target);
  }
}
