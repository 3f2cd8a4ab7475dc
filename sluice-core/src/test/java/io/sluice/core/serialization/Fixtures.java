package io.sluice.core.serialization;

import io.sluice.core.serialization.spi.ObjectSerializer;
import io.sluice.core.serialization.spi.SerializerFactory;
import io.sluice.core.serialization.spi.SerializerSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Values and a second serializer for the serialization tests. */
final class Fixtures {

  private Fixtures() {}

  record Address(String street, String city) implements Serializable {}

  record Customer(String name, Address address, List<String> tags) implements Serializable {}

  /** A second serializer (id 200) for strings only, to switch the default between two. */
  static final class Utf8Serializer implements ObjectSerializer {
    @Override
    public String name() {
      return "utf8";
    }

    @Override
    public int id() {
      return 200;
    }

    @Override
    public int formatVersion() {
      return 1;
    }

    @Override
    public void serialize(Object value, OutputStream out) throws IOException {
      out.write(((String) value).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public Object deserialize(InputStream in, ClassLoader loader) throws IOException {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  static class Utf8Factory implements SerializerFactory {
    @Override
    public String name() {
      return "utf8";
    }

    @Override
    public ObjectSerializer create(SerializerSettings settings) {
      return new Utf8Serializer();
    }
  }

  static StoredValues storedValues(String serializer, String codec) {
    return StoredValues.builder(
            SerializationConfig.builder().serializer(serializer).codec(codec).build())
        .serializer(new Utf8Factory())
        .build();
  }
}
