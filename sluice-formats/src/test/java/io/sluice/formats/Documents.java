package io.sluice.formats;

import io.sluice.core.Message;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** The documents of the test resources, and messages of them as the file source hands them. */
final class Documents {

  private Documents() {}

  static Path path(String name) {
    try {
      return Path.of(Documents.class.getResource("/documents/" + name).toURI());
    } catch (URISyntaxException | NullPointerException e) {
      throw new IllegalArgumentException("no test document " + name, e);
    }
  }

  static byte[] bytes(String name) {
    try {
      return Files.readAllBytes(path(name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String text(String name) {
    return new String(bytes(name), StandardCharsets.UTF_8);
  }

  /** A message as the file source makes it: the bytes, with fileName and path attributes. */
  static Message file(String name) {
    return Message.of(bytes(name), Map.of("fileName", name, "path", path(name).toString()));
  }

  /** The error {@code run} fails with, as a FormatException. */
  static FormatException failure(Runnable run) {
    try {
      run.run();
    } catch (FormatException e) {
      return e;
    }
    throw new AssertionError("expected a FormatException");
  }
}
