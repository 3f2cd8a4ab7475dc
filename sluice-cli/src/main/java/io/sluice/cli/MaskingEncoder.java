package io.sluice.cli;

import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.sluice.config.Secrets;
import java.nio.charset.Charset;

/**
 * A pattern encoder that masks secret values: every value registered with {@link Secrets} (those of
 * the {@code ${secret:...}} placeholders of the configuration) is replaced by {@code ******} in the
 * whole line it writes, message, arguments and stack trace alike. While no secret is registered it
 * writes what {@link PatternLayoutEncoder} writes, at no cost.
 *
 * <p>The {@code sluice} command's logging uses it ({@link LogConfigurator}); a {@code logback.xml}
 * of one's own can name it as its {@code <encoder class="io.sluice.cli.MaskingEncoder">}.
 */
public final class MaskingEncoder extends PatternLayoutEncoder {

  /** An encoder to be given a pattern and started, as a {@link PatternLayoutEncoder}. */
  public MaskingEncoder() {}

  @Override
  public byte[] encode(ILoggingEvent event) {
    byte[] line = super.encode(event);
    if (!Secrets.any()) {
      return line;
    }
    Charset charset = getCharset() != null ? getCharset() : Charset.defaultCharset();
    String text = new String(line, charset);
    String masked = Secrets.mask(text);
    return masked.equals(text) ? line : masked.getBytes(charset);
  }
}
