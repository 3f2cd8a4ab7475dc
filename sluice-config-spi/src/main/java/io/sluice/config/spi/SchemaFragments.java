package io.sluice.config.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.core.SluiceException;
import java.io.IOException;
import java.io.InputStream;

/** Reads the JSON Schema fragments components ship as resources. */
public final class SchemaFragments {

  private static final ObjectMapper JSON = new ObjectMapper();

  private SchemaFragments() {}

  /** The JSON resource {@code name} beside {@code owner}; fails when it is missing or not JSON. */
  public static JsonNode read(Class<?> owner, String name) {
    try (InputStream in = owner.getResourceAsStream(name)) {
      if (in == null) {
        throw new SluiceException(
            "the schema fragment " + name + " is missing beside " + owner.getName());
      }
      return JSON.readTree(in);
    } catch (IOException e) {
      throw new SluiceException("cannot read the schema fragment " + name + ": " + e, e);
    }
  }
}
