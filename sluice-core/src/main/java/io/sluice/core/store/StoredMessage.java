package io.sluice.core.store;

import io.sluice.core.Message;
import java.io.InputStream;
import java.io.Serial;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A message as a durable queue keeps it: its payload, attributes and variables (an error being
 * handled is not kept), and the sender's correlation id, if it set one, to match the message up
 * again when it is delivered. Every serializer can write it; its payload, attribute and variable
 * values must be writable too.
 *
 * @param payload the payload
 * @param attributes the attributes
 * @param variables the variables
 * @param correlationId set by a sender that waits for this message's outcome in this process; null
 *     otherwise
 */
public record StoredMessage(
    Object payload,
    Map<String, Object> attributes,
    Map<String, Object> variables,
    String correlationId)
    implements Serializable {

  @Serial private static final long serialVersionUID = 1L;

  /** Copies the maps into plain ones every serializer writes the same way. */
  public StoredMessage {
    attributes = new LinkedHashMap<>(attributes);
    variables = new LinkedHashMap<>(variables);
  }

  /** A stored message without a correlation id. */
  public StoredMessage(
      Object payload, Map<String, Object> attributes, Map<String, Object> variables) {
    this(payload, attributes, variables, null);
  }

  /** What is kept of {@code message}. */
  public static StoredMessage of(Message message) {
    return of(message, null);
  }

  /**
   * What is kept of {@code message}, with a correlation id.
   *
   * @throws IllegalArgumentException when the payload is a stream, which cannot be kept
   */
  public static StoredMessage of(Message message, String correlationId) {
    if (message.payload() instanceof InputStream) {
      throw new IllegalArgumentException(
          "A stream payload ("
              + message.payload().getClass().getName()
              + ") cannot be stored: read it into bytes or a String first. A file source with"
              + " streaming: true or a streaming HTTP listener cannot feed a persistent flow or"
              + " queue directly");
    }
    return new StoredMessage(
        message.payload(), message.attributes(), message.variables(), correlationId);
  }

  /** The message again. */
  public Message toMessage() {
    return Message.of(payload, attributes).withVariables(variables);
  }
}
