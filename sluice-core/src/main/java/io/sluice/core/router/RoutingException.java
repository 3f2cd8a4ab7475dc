package io.sluice.core.router;

import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.expression.Expression;

/**
 * An error of a router or scope itself, not of a processor it ran: an expression that failed
 * ({@code ROUTING:EXPRESSION}), routes cut by a timeout ({@code ROUTING:TIMEOUT}), retries run out
 * ({@code ROUTING:RETRY_EXHAUSTED}). Routes that failed together are a {@link
 * CompositeRoutingException}.
 */
public class RoutingException extends SluiceException {

  /** An error of this type ({@code ROUTING:...}) with this message and cause. */
  public RoutingException(String errorType, String message, Throwable cause) {
    super(errorType, message, cause);
  }

  /** The router's expression failed for this message: names the router, expression and message. */
  static RoutingException expression(
      String router, String flow, Expression expression, Message message, Throwable cause) {
    return new RoutingException(
        "ROUTING:EXPRESSION",
        router
            + " in flow '"
            + flow
            + "': expression '"
            + expression.text()
            + "' failed for message "
            + message.id()
            + ": "
            + reason(cause),
        cause);
  }

  private static String reason(Throwable cause) {
    String text = cause.getMessage();
    String prefix = "Expression '";
    if (text != null && text.startsWith(prefix)) {
      int end = text.indexOf("' failed: ");
      if (end > 0) {
        return text.substring(end + "' failed: ".length());
      }
    }
    return text == null ? cause.getClass().getName() : text;
  }
}
