package io.sluice.core.expression;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.FlowError;
import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.jexl3.JexlBuilder;
import org.apache.commons.jexl3.JexlContext;
import org.apache.commons.jexl3.JexlEngine;
import org.apache.commons.jexl3.JexlException;
import org.apache.commons.jexl3.JexlScript;
import org.apache.commons.jexl3.introspection.JexlPermissions;

/**
 * A compiled expression in Apache Commons JEXL, evaluated against a message. It sees {@code
 * payload}, {@code attributes}, {@code vars}, {@code error} (inside an error handler, else null;
 * with {@code error.message}, {@code error.type}, {@code error.errorType}, {@code error.flow},
 * {@code error.processor} and {@code error.cause}) and {@code message}. For example {@code
 * payload.toUpperCase()} or {@code vars.count > 3}.
 *
 * <p>Expressions are compiled once, when the flow is built, so a syntax error is a configuration
 * error, not a runtime surprise. They are thread-safe. A plain path ({@code payload.order.id}) and
 * a path compared with a literal ({@code payload.country == 'FR'}) are evaluated without JEXL when
 * they can be, with JEXL's result.
 */
public final class Expression {

  private static final JexlEngine ENGINE =
      new JexlBuilder()
          .permissions(JexlPermissions.UNRESTRICTED)
          .strict(true)
          .silent(false)
          .safe(false)
          .cache(512)
          .create();

  private final String text;
  private final JexlScript script;
  private final Shortcut shortcut;

  private Expression(String text, JexlScript script) {
    this.text = text;
    this.script = script;
    this.shortcut = Shortcut.of(text);
  }

  /**
   * Compiles {@code text}; a syntax error is a {@link ConfigurationException} naming {@code path}.
   */
  public static Expression compile(String path, String text) {
    if (text == null || text.isBlank()) {
      throw new ConfigurationException(
          ConfigProblem.of(path, text, "must be a non-empty expression"));
    }
    try {
      return new Expression(text, ENGINE.createScript(text));
    } catch (JexlException e) {
      throw new ConfigurationException(
          ConfigProblem.of(path, text, "does not compile: " + reason(e)));
    }
  }

  /** Evaluates against a message; a failure is an {@link ExpressionException} naming the text. */
  public Object evaluate(Message message) {
    if (shortcut != null) {
      Object value = shortcut.evaluate(message);
      if (value != Shortcut.UNSOLVED) {
        return value;
      }
    }
    try {
      return script.execute(new MessageContext(message));
    } catch (JexlException e) {
      throw new ExpressionException(text, reason(e), e);
    }
  }

  /** Evaluates with JEXL alone, never the shortcut: what the shortcut must always agree with. */
  Object evaluateWithJexl(Message message) {
    try {
      return script.execute(new MessageContext(message));
    } catch (JexlException e) {
      throw new ExpressionException(text, reason(e), e);
    }
  }

  /** Whether this expression has a shortcut. */
  boolean hasShortcut() {
    return shortcut != null;
  }

  /** Evaluates and requires a boolean result. */
  public boolean test(Message message) {
    Object result = evaluate(message);
    if (result instanceof Boolean b) {
      return b;
    }
    throw new ExpressionException(
        text, "returned " + result + " where true or false was expected", null);
  }

  /** The source text. */
  public String text() {
    return text;
  }

  @Override
  public String toString() {
    return text;
  }

  /**
   * The names an expression sees, read from the message when asked for rather than copied into a
   * map first (an expression evaluated per message, a choice's condition, pays for no map); names a
   * script assigns live in a map of its own, made when the first is assigned.
   */
  private static final class MessageContext implements JexlContext {
    private final Message message;
    private Map<String, Object> locals;

    MessageContext(Message message) {
      this.message = message;
    }

    @Override
    public Object get(String name) {
      if (locals != null && locals.containsKey(name)) {
        return locals.get(name);
      }
      return switch (name) {
        case "payload" -> message.payload();
        case "attributes" -> message.attributes();
        case "vars" -> message.variables();
        case "error" -> message.error().map(Expression::errorView).orElse(null);
        case "message" -> message;
        default -> null;
      };
    }

    @Override
    public void set(String name, Object value) {
      if (locals == null) {
        locals = new HashMap<>();
      }
      locals.put(name, value);
    }

    @Override
    public boolean has(String name) {
      return switch (name) {
        case "payload", "attributes", "vars", "error", "message" -> true;
        default -> locals != null && locals.containsKey(name);
      };
    }
  }

  /** The error as JEXL sees it: a map, since JEXL reads no record components as properties. */
  private static Map<String, Object> errorView(FlowError error) {
    Map<String, Object> view = new HashMap<>();
    view.put("message", error.message());
    view.put("type", error.type());
    view.put("errorType", error.errorType());
    view.put("flow", error.flow());
    view.put("processor", error.processor());
    view.put("cause", error.cause());
    return view;
  }

  /**
   * JEXL's message without its internal prefix ({@code Expression.compile:49@1:8 parsing error in
   * '.'} becomes {@code parsing error in '.' at line 1, column 8}).
   */
  private static String reason(JexlException e) {
    String text = firstLine(e.getMessage());
    Matcher prefix = Pattern.compile("^\\S*?@(\\d+):(\\d+)(?::\\d+:\\d+)? (.*)$").matcher(text);
    return prefix.matches()
        ? prefix.group(3) + " at line " + prefix.group(1) + ", column " + prefix.group(2)
        : text;
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "unknown error";
    }
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }

  /** An expression that failed while it was evaluated ({@code SLUICE:EXPRESSION}). */
  public static final class ExpressionException extends SluiceException {
    ExpressionException(String expression, String reason, Throwable cause) {
      super("SLUICE:EXPRESSION", "Expression '" + expression + "' failed: " + reason, cause);
    }
  }
}
