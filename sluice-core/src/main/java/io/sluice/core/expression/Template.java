package io.sluice.core.expression;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.Message;
import java.util.ArrayList;
import java.util.List;

/**
 * Text with embedded expressions, written {@code #[...]}: {@code "copied #[attributes.fileName]"}.
 * A template that is one expression and nothing else ({@code "#[payload.size()]"}) evaluates to the
 * expression's value itself, not its text.
 */
public final class Template {

  private final String text;
  private final List<Object> parts; // String literals and Expressions, in order

  private Template(String text, List<Object> parts) {
    this.text = text;
    this.parts = parts;
  }

  /** Parses {@code text}; an unclosed or bad expression is a configuration error naming path. */
  public static Template parse(String path, String text) {
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
      int close = findClose(text, open + 2);
      if (close < 0) {
        throw new ConfigurationException(
            ConfigProblem.of(
                path,
                text,
                "has an expression opened with #[ at " + open + " and never closed with ]"));
      }
      parts.add(Expression.compile(path, text.substring(open + 2, close)));
      at = close + 1;
    }
    return new Template(text, List.copyOf(parts));
  }

  /** Whether the text contains any expression. */
  public boolean isDynamic() {
    return parts.stream().anyMatch(Expression.class::isInstance);
  }

  /** The value: the text with every expression replaced, or a lone expression's own value. */
  public Object evaluate(Message message) {
    if (parts.size() == 1 && parts.get(0) instanceof Expression only) {
      return only.evaluate(message);
    }
    return render(message);
  }

  /** The text with every expression replaced by its value's string form. */
  public String render(Message message) {
    if (parts.size() == 1 && parts.get(0) instanceof String literal) {
      return literal;
    }
    StringBuilder out = new StringBuilder();
    for (Object part : parts) {
      out.append(part instanceof Expression e ? String.valueOf(e.evaluate(message)) : part);
    }
    return out.toString();
  }

  /** The source text. */
  public String text() {
    return text;
  }

  @Override
  public String toString() {
    return text;
  }

  private static int findClose(String text, int from) {
    int depth = 0;
    char quote = 0;
    for (int i = from; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        if (c == '\\') {
          i++;
        } else if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '[') {
        depth++;
      } else if (c == ']') {
        if (depth == 0) {
          return i;
        }
        depth--;
      }
    }
    return -1;
  }
}
