package io.sluice.formats;

import io.sluice.core.Message;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.formats.internal.DocumentReader;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A processor that parses the payload (a String, bytes, an InputStream or a file's {@link
 * java.nio.file.Path}) as JSON, XML, CSV or YAML into plain Java values: maps keeping the
 * document's order, lists, texts, numbers, booleans and null, so that expressions reach into them
 * ({@code payload.order.items[0].sku}). CSV becomes a list of rows, each a map keyed by the header
 * row or a list of texts. XML becomes a map as Jackson's XmlMapper reads it: the root element's
 * children by name, attributes as keys, repeated elements as lists, text beside attributes under
 * the key "".
 *
 * <p>The format is the configured one, else the message's: the {@code content-type} of its {@code
 * headers} attribute (as HTTP sets it), a {@code mimeType} attribute, or its {@code fileName}
 * attribute's extension. A document that does not parse, passes a limit or names no format fails
 * with a {@link FormatException} of type {@code FORMAT:PARSE}.
 */
public final class ReadProcessor implements Processor {

  private final ReadConfig config;
  private final DocumentReader reader;

  /** A reader of {@code config}. */
  public ReadProcessor(ReadConfig config) {
    this.config = Objects.requireNonNull(config, "config");
    this.reader = new DocumentReader(config);
  }

  /** A reader of {@code format} with the defaults. */
  public static ReadProcessor of(Format format) {
    return new ReadProcessor(ReadConfig.builder().format(format).build());
  }

  @Override
  public Message process(Message message) {
    Format format = format(message);
    Object value =
        config.streaming()
            ? reader.stream(message.payload(), format)
            : reader.read(message.payload(), format);
    return config.target() == null
        ? message.withPayload(value)
        : message.withVariable(config.target(), value);
  }

  /** The configured format, else the one the message's attributes name. */
  private Format format(Message message) {
    if (config.format() != null) {
      return config.format();
    }
    String contentType = contentType(message);
    Optional<Format> named = Format.forMimeType(contentType);
    if (named.isPresent()) {
      return named.get();
    }
    Object fileName = message.attribute("fileName");
    Optional<Format> byName = Format.forFileName(fileName == null ? null : fileName.toString());
    if (byName.isPresent()) {
      return byName.get();
    }
    throw FormatException.parse(
        null,
        "the message names no format: its content type is "
            + (contentType == null ? "absent" : "'" + contentType + "'")
            + " and its file name "
            + (fileName == null ? "absent" : "'" + fileName + "'")
            + "; set format (JSON, XML, CSV, YAML) or mimeType on the read",
        0,
        0,
        null);
  }

  private static String contentType(Message message) {
    if (message.attribute("headers") instanceof Map<?, ?> headers) {
      Object type = headers.get("content-type");
      if (type != null) {
        return type.toString();
      }
    }
    Object mimeType = message.attribute("mimeType");
    return mimeType == null ? null : mimeType.toString();
  }

  /** The configuration. */
  public ReadConfig config() {
    return config;
  }

  @Override
  public ProcessingType processingType() {
    return config.effectiveProcessingType();
  }

  @Override
  public String name() {
    return "read";
  }
}
