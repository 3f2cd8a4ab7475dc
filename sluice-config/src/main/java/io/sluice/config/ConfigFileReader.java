package io.sluice.config;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a configuration file's text: at most {@link #MAX_BYTES} (checked before reading, so a huge
 * file is refused at once, not after the YAML parser spent seconds on it), strictly UTF-8, a byte
 * that is not naming its line, column and byte offset.
 */
final class ConfigFileReader {

  /** The largest configuration file or text read, in bytes (1 MiB); the largest example is 3 KB. */
  static final int MAX_BYTES = 1 << 20;

  private ConfigFileReader() {}

  /**
   * At most {@link #MAX_BYTES} + 1 bytes of {@code file}, so a caller tells a file too large (or a
   * pipe or device, whose size says nothing) without reading it whole.
   */
  static byte[] readAtMost(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return in.readNBytes(MAX_BYTES + 1);
    }
  }

  /** The text of {@code file}, or a {@link ConfigurationException} saying why it has none. */
  static String read(Path file) {
    byte[] bytes;
    try {
      long size = Files.size(file);
      if (size > MAX_BYTES) {
        throw tooLarge(file.toString(), size + " bytes");
      }
      bytes = readAtMost(file);
    } catch (IOException | RuntimeException e) {
      if (e instanceof ConfigurationException refused) {
        throw refused;
      }
      throw new ConfigurationException(
          new ConfigProblem(
              YamlTreeReader.FILE,
              file,
              "could not be read (" + e + "); check that the file exists and is readable",
              file.toString()));
    }
    if (bytes.length > MAX_BYTES) { // it grew while it was read
      throw tooLarge(file.toString(), "more than " + MAX_BYTES + " bytes");
    }
    return decode(
        file.getFileName() == null ? file.toString() : file.getFileName().toString(), bytes);
  }

  /**
   * Refuses configuration text longer than {@link #MAX_BYTES} characters, or holding a control
   * character YAML does not allow (a NUL), at its line and column: the YAML parser would report it
   * at the file's start.
   */
  static void check(String sourceName, String text) {
    if (text.length() > MAX_BYTES) {
      throw tooLarge(sourceName, text.length() + " characters");
    }
    int line = 1;
    int column = 1;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\n') {
        line++;
        column = 1;
        continue;
      }
      if (c != '\t'
          && c != '\r'
          && (c < 0x20 || c == 0x7F || (c >= 0x80 && c < 0xA0 && c != 0x85))) {
        throw new ConfigurationException(
            ConfigProblem.of(
                    YamlTreeReader.FILE,
                    null,
                    String.format(
                        "holds the control character U+%04X, which YAML does not allow; write it"
                            + " as an escape (\\0 for a NUL) inside double quotes",
                        (int) c))
                .at(sourceName + ":" + line + ":" + column));
      }
      column++;
    }
  }

  private static ConfigurationException tooLarge(String source, String size) {
    return new ConfigurationException(
        new ConfigProblem(
            YamlTreeReader.FILE,
            size,
            "is larger than "
                + MAX_BYTES
                + " bytes (1 MiB), the most a configuration file may hold; is it the right file?",
            source));
  }

  /** The bytes as UTF-8, or a problem at the first malformed byte. */
  static String decode(String fileName, byte[] bytes) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isError()) {
      throw notUtf8(fileName, bytes, in.position(), out.flip());
    }
    decoder.flush(out);
    return out.flip().toString();
  }

  private static ConfigurationException notUtf8(
      String fileName, byte[] bytes, int offset, CharBuffer before) {
    int line = 1;
    int column = 1;
    for (int i = 0; i < before.length(); i++) {
      if (before.charAt(i) == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return new ConfigurationException(
        ConfigProblem.of(
                YamlTreeReader.FILE,
                null,
                String.format(
                    "is not UTF-8: byte 0x%02X at byte offset %d does not belong there; save the"
                        + " file as UTF-8",
                    bytes[offset] & 0xFF, offset))
            .at(fileName + ":" + line + ":" + column));
  }
}
