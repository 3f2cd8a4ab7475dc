package io.sluice.formats.internal;

import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A template whose expressions are all plain paths into the message ({@code
 * payload.order.items[0].sku}, {@code vars.order['id']}, {@code payload.items.size()}), evaluated
 * by walking maps and lists instead of through JEXL: a transform is mostly such paths, and JEXL
 * costs about 0.6 µs each. Whenever a step is not a present map key, an index within a list or a
 * size of a collection or map, the whole template is evaluated by JEXL instead, so the result (or
 * the error) is always JEXL's.
 */
public final class PathTemplate {

  private static final Pattern PATH =
      Pattern.compile(
          "\\s*(payload|vars|attributes)((?:\\.[A-Za-z_$][A-Za-z0-9_$]*|\\[\\d{1,9}]"
              + "|\\['[^'\\\\]*']|\\[\"[^\"\\\\]*\"])*)(\\.size\\(\\))?\\s*");
  private static final Pattern STEP =
      Pattern.compile("\\.([A-Za-z_$][A-Za-z0-9_$]*)|\\[(\\d+)]|\\['([^']*)']|\\[\"([^\"]*)\"]");

  /**
   * The bean properties of each map class ({@code class}, {@code empty}): JEXL reads {@code
   * map.class} as {@code getClass()}, not as the key, so such keys are left to it.
   */
  private static final ClassValue<Set<String>> PROPERTIES =
      new ClassValue<>() {
        @Override
        protected Set<String> computeValue(Class<?> type) {
          Set<String> names = new HashSet<>();
          for (Method method : type.getMethods()) {
            String name = method.getName();
            if (method.getParameterCount() == 0) {
              names.add(name);
              if (name.startsWith("get") && name.length() > 3) {
                names.add(decapitalize(name.substring(3)));
              } else if (name.startsWith("is") && name.length() > 2) {
                names.add(decapitalize(name.substring(2)));
              }
            }
          }
          return Set.copyOf(names);
        }
      };

  private static String decapitalize(String name) {
    return Character.toLowerCase(name.charAt(0)) + name.substring(1);
  }

  /** Stands for "not found by walking": JEXL decides. */
  private static final Object UNSOLVED = new Object();

  private final Template jexl;
  private final List<Object> parts; // String literals and Paths
  private final boolean lone;

  private PathTemplate(Template jexl, List<Object> parts) {
    this.jexl = jexl;
    this.parts = parts;
    this.lone = parts.size() == 1 && parts.get(0) instanceof Path;
  }

  /** The template's fast form, or null when one of its expressions is more than a path. */
  public static PathTemplate of(Template template) {
    String text = template.text();
    List<Object> parts = new ArrayList<>();
    int at = 0;
    while (at < text.length()) {
      int open = text.indexOf("#[", at);
      if (open < 0) {
        parts.add(text.substring(at));
        break;
      }
      if (open > at) {
        parts.add(text.substring(at, open));
      }
      int close = text.indexOf(']', open + 2);
      // the path's own brackets: take the last ']' that leaves a path before the next "#["
      Path path = null;
      while (close >= 0 && path == null) {
        path = Path.parse(text.substring(open + 2, close));
        if (path == null) {
          int next = text.indexOf(']', close + 1);
          int nextOpen = text.indexOf("#[", open + 2);
          close = next >= 0 && (nextOpen < 0 || next < nextOpen) ? next : -1;
        }
      }
      if (path == null) {
        return null;
      }
      parts.add(path);
      at = close + 1;
    }
    return new PathTemplate(template, List.copyOf(parts));
  }

  /** The value: a lone path's own value, else the text with each path's value. */
  public Object evaluate(Message message) {
    if (lone) {
      Object value = ((Path) parts.get(0)).walk(message);
      return value == UNSOLVED ? jexl.evaluate(message) : value;
    }
    StringBuilder out = new StringBuilder();
    for (Object part : parts) {
      if (part instanceof Path path) {
        Object value = path.walk(message);
        if (value == UNSOLVED) {
          return jexl.evaluate(message);
        }
        out.append(value);
      } else {
        out.append((String) part);
      }
    }
    return out.toString();
  }

  /**
   * A map key of a path, which remembers whether it names a property of the last map class it was
   * asked about (most paths meet one class only, so the class's properties are looked up once).
   */
  private static final class Key {
    private final String name;
    private volatile Answer last = new Answer(Void.class, false);

    private record Answer(Class<?> type, boolean property) {}

    Key(String name) {
      this.name = name;
    }

    String name() {
      return name;
    }

    boolean isPropertyOf(Map<?, ?> map) {
      Answer answer = last;
      if (answer.type() != map.getClass()) {
        answer = new Answer(map.getClass(), PROPERTIES.get(map.getClass()).contains(name));
        last = answer;
      }
      return answer.property();
    }
  }

  /** A root and its steps: keys, indexes (Integer), and a final size(). */
  private record Path(String root, List<Object> steps, boolean size) {

    static Path parse(String text) {
      Matcher m = PATH.matcher(text);
      if (!m.matches()) {
        return null;
      }
      List<Object> steps = new ArrayList<>();
      Matcher step = STEP.matcher(m.group(2));
      while (step.find()) {
        if (step.group(2) != null) {
          steps.add(Integer.valueOf(step.group(2)));
        } else {
          String key = step.group(1) != null ? step.group(1) : step.group(3);
          steps.add(new Key(key != null ? key : step.group(4)));
        }
      }
      return new Path(m.group(1), List.copyOf(steps), m.group(3) != null);
    }

    Object walk(Message message) {
      Object value =
          switch (root) {
            case "payload" -> message.payload();
            case "vars" -> message.variables();
            default -> message.attributes();
          };
      for (Object step : steps) {
        if (step instanceof Key key && value instanceof Map<?, ?> map) {
          Object next = map.get(key.name());
          if ((next == null && !map.containsKey(key.name())) || key.isPropertyOf(map)) {
            return UNSOLVED;
          }
          value = next;
        } else if (step instanceof Integer index
            && value instanceof List<?> list
            && index < list.size()) {
          value = list.get(index);
        } else {
          return UNSOLVED;
        }
      }
      if (size) {
        if (value instanceof Collection<?> collection) {
          return collection.size();
        }
        return value instanceof Map<?, ?> map ? map.size() : UNSOLVED;
      }
      return value;
    }
  }
}
