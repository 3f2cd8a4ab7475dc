package io.sluice.core.expression;

import io.sluice.core.Message;
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
 * The expressions most flows are made of, evaluated without JEXL: a plain path into the message
 * ({@code payload.order.items[0].sku}, {@code vars.order['id']}, {@code payload.items.size()}) and
 * a path compared with a literal ({@code payload.country == 'FR'}, {@code vars.count >= 3}). JEXL
 * takes about half a microsecond an expression; a choice or a transform is mostly these. Whenever a
 * step is not a present map key or an index within a list, or the comparison is one whose coercions
 * only JEXL knows (a text against a number, a decimal), the shortcut gives up and JEXL evaluates
 * the expression, so the value (or the error) is always JEXL's.
 */
final class Shortcut {

  /** Stands for "the shortcut cannot tell": JEXL decides. */
  static final Object UNSOLVED = new Object();

  private static final String PATH_TEXT =
      "(payload|vars|attributes)((?:\\.[A-Za-z_$][A-Za-z0-9_$]*|\\[\\d{1,9}]"
          + "|\\['[^'\\\\]*']|\\[\"[^\"\\\\]*\"])*)(\\.size\\(\\))?";
  private static final Pattern PATH = Pattern.compile("\\s*" + PATH_TEXT + "\\s*");
  private static final Pattern LITERAL =
      Pattern.compile("-?\\d{1,18}|'[^'\\\\]*'|\"[^\"\\\\]*\"|true|false|null");
  private static final Pattern COMPARISON =
      Pattern.compile(
          "\\s*("
              + PATH_TEXT
              + "|"
              + LITERAL.pattern()
              + ")\\s*(==|!=|<=|>=|<|>)\\s*("
              + PATH_TEXT
              + "|"
              + LITERAL.pattern()
              + ")\\s*");
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

  private final Operand left;
  private final String operator; // null: a lone path
  private final Operand right;

  private Shortcut(Operand left, String operator, Operand right) {
    this.left = left;
    this.operator = operator;
    this.right = right;
  }

  /** The shortcut for {@code text}, or null when it is more than a path or a comparison. */
  static Shortcut of(String text) {
    Path path = Path.parse(text);
    if (path != null) {
      return new Shortcut(path, null, null);
    }
    Matcher m = COMPARISON.matcher(text);
    if (!m.matches()) {
      return null;
    }
    Operand left = operand(m.group(1));
    Operand right = operand(m.group(6));
    if (left == null || right == null || (left instanceof Constant && right instanceof Constant)) {
      return null;
    }
    return new Shortcut(left, m.group(5), right);
  }

  private static Operand operand(String text) {
    Path path = Path.parse(text);
    if (path != null) {
      return path;
    }
    if (text.equals("null")) {
      return new Constant(null);
    }
    if (text.equals("true") || text.equals("false")) {
      return new Constant(Boolean.valueOf(text));
    }
    if (text.startsWith("'") || text.startsWith("\"")) {
      return new Constant(text.substring(1, text.length() - 1));
    }
    try {
      return new Constant(Long.parseLong(text));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The expression's value, or {@link #UNSOLVED} when JEXL must tell. */
  Object evaluate(Message message) {
    Object a = left.value(message);
    if (operator == null || a == UNSOLVED) {
      return a;
    }
    Object b = right.value(message);
    if (b == UNSOLVED) {
      return UNSOLVED;
    }
    return switch (operator) {
      case "==" -> equal(a, b);
      case "!=" -> negate(equal(a, b));
      default -> order(a, b);
    };
  }

  private static Object negate(Object equal) {
    return equal instanceof Boolean b ? !b : equal;
  }

  /** JEXL's == where the answer needs no coercion: same kinds, or null against anything. */
  private static Object equal(Object a, Object b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (a instanceof String x && b instanceof String y) {
      return x.equals(y);
    }
    if (a instanceof Boolean x && b instanceof Boolean y) {
      return x.equals(y);
    }
    if (integral(a) && integral(b)) {
      return ((Number) a).longValue() == ((Number) b).longValue();
    }
    return UNSOLVED;
  }

  private Object order(Object a, Object b) {
    if (!integral(a) || !integral(b)) {
      return UNSOLVED;
    }
    int c = Long.compare(((Number) a).longValue(), ((Number) b).longValue());
    return switch (operator) {
      case "<" -> c < 0;
      case "<=" -> c <= 0;
      case ">" -> c > 0;
      default -> c >= 0;
    };
  }

  private static boolean integral(Object value) {
    return value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte;
  }

  /** One side of a comparison. */
  private sealed interface Operand permits Path, Constant {
    Object value(Message message);
  }

  private record Constant(Object value) implements Operand {
    @Override
    public Object value(Message message) {
      return value;
    }
  }

  /** A root and its steps: keys (String), indexes (Integer), and a final size(). */
  private record Path(String root, List<Object> steps, boolean size) implements Operand {

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
          steps.add(key != null ? key : step.group(4));
        }
      }
      return new Path(m.group(1), List.copyOf(steps), m.group(3) != null);
    }

    @Override
    public Object value(Message message) {
      Object value =
          switch (root) {
            case "payload" -> message.payload();
            case "vars" -> message.variables();
            default -> message.attributes();
          };
      for (int i = 0, n = steps.size(); i < n; i++) {
        Object step = steps.get(i);
        if (step instanceof String key
            && value instanceof Map<?, ?> map
            && map.containsKey(key)
            && !PROPERTIES.get(map.getClass()).contains(key)) {
          value = map.get(key);
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

  private static String decapitalize(String name) {
    return Character.toLowerCase(name.charAt(0)) + name.substring(1);
  }
}
