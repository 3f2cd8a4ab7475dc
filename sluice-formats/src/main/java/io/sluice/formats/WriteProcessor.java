package io.sluice.formats;

import io.sluice.core.Message;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.formats.internal.DocumentWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A processor that writes the payload (or a template's value) as JSON, XML, CSV or YAML text, or
 * its UTF-8 bytes. CSV is written from rows: maps (cells by column name) or lists; an iterator of
 * values (a streaming read's) is consumed one value at a time for JSON (as an array) and CSV, and
 * closed at its end. A value that cannot be written fails with a {@link FormatException} of type
 * {@code FORMAT:WRITE}.
 *
 * <p>When the result becomes the payload, the format's MIME type is added to the response headers
 * an HTTP listener answers with: the {@code content-type} of the {@code httpHeaders} variable.
 */
public final class WriteProcessor implements Processor {

  /** The variable the HTTP listener takes its response headers from. */
  public static final String HTTP_HEADERS = "httpHeaders";

  private final WriteConfig config;
  private final DocumentWriter writer;
  private final Map<String, String> contentType;

  /** A writer of {@code config}. */
  public WriteProcessor(WriteConfig config) {
    this.config = Objects.requireNonNull(config, "config");
    this.writer = new DocumentWriter(config);
    this.contentType = Map.of("content-type", config.format().mimeType());
  }

  /** A writer of the payload as {@code format} with the defaults. */
  public static WriteProcessor of(Format format) {
    return new WriteProcessor(WriteConfig.builder(format).build());
  }

  @Override
  public Message process(Message message) {
    Object value = config.value() == null ? message.payload() : config.value().evaluate(message);
    String text = writer.write(value);
    Object result =
        config.output() == WriteConfig.Output.BYTES ? text.getBytes(StandardCharsets.UTF_8) : text;
    if (config.target() != null) {
      return message.withVariable(config.target(), result);
    }
    return message.withPayload(result).withVariable(HTTP_HEADERS, headers(message));
  }

  /** The response headers with the format's content type. */
  private Map<?, ?> headers(Message message) {
    if (!(message.variable(HTTP_HEADERS) instanceof Map<?, ?> set)) {
      return contentType; // the common case: no other header set, nothing to copy
    }
    Map<Object, Object> headers = new LinkedHashMap<>(set);
    headers.keySet().removeIf(name -> "content-type".equalsIgnoreCase(String.valueOf(name)));
    headers.put("content-type", config.format().mimeType());
    return headers;
  }

  /** The configuration. */
  public WriteConfig config() {
    return config;
  }

  @Override
  public ProcessingType processingType() {
    return config.processingType();
  }

  @Override
  public String name() {
    return "write";
  }
}
