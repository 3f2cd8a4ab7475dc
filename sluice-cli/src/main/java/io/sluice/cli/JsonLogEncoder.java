package io.sluice.cli;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.config.Secrets;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Map;

/**
 * One JSON object per log line, for a log collector (Loki, Elasticsearch, CloudWatch) to search:
 * {@code time} (ISO-8601 UTC), {@code level}, {@code logger}, {@code thread}, {@code message}, then
 * every MDC entry as a field of its own ({@code flow}, {@code messageId}, {@code jobId}, {@code
 * batchInstance} while Sluice handles one), and {@code error} (the whole stack trace) when the line
 * carries an exception. Every text is masked of the configuration's secrets before it is escaped,
 * so an escaped quote or line end cannot hide a secret from the mask.
 */
public final class JsonLogEncoder extends EncoderBase<ILoggingEvent> {

  private static final JsonFactory JSON = new JsonFactory();
  private static final byte[] NOTHING = new byte[0];

  /** Made by {@link LogConfigurator}, or named in a {@code logback.xml}. */
  public JsonLogEncoder() {}

  @Override
  public byte[] headerBytes() {
    return NOTHING;
  }

  @Override
  public byte[] footerBytes() {
    return NOTHING;
  }

  @Override
  public byte[] encode(ILoggingEvent event) {
    ByteArrayOutputStream line = new ByteArrayOutputStream(256);
    try (JsonGenerator json = JSON.createGenerator(line)) {
      json.writeStartObject();
      json.writeStringField("time", Instant.ofEpochMilli(event.getTimeStamp()).toString());
      json.writeStringField("level", event.getLevel().toString());
      json.writeStringField("logger", event.getLoggerName());
      json.writeStringField("thread", event.getThreadName());
      json.writeStringField("message", Secrets.mask(event.getFormattedMessage()));
      for (Map.Entry<String, String> entry : event.getMDCPropertyMap().entrySet()) {
        if (entry.getValue() != null) {
          json.writeStringField(entry.getKey(), Secrets.mask(entry.getValue()));
        }
      }
      IThrowableProxy error = event.getThrowableProxy();
      if (error != null) {
        json.writeStringField("error", Secrets.mask(ThrowableProxyUtil.asString(error)));
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write a log line as JSON", e);
    }
    line.write('\n');
    return line.toByteArray();
  }
}
