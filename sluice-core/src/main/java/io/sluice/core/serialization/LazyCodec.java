package io.sluice.core.serialization;

import io.sluice.core.serialization.spi.Codec;
import io.sluice.core.serialization.spi.CodecFactory;
import io.sluice.core.serialization.spi.SerializationException;

/**
 * An installed codec made when a record first needs it: its factory knows its name and id without
 * making one, and making it may load a native library that a start using another codec never needs.
 * A codec that cannot be made fails the record that needed it, with the reason.
 */
final class LazyCodec implements Codec {
  private final CodecFactory factory;
  private final String name;
  private final int id;
  private volatile Codec made;

  LazyCodec(CodecFactory factory, String name, int id) {
    this.factory = factory;
    this.name = name;
    this.id = id;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public int id() {
    return id;
  }

  @Override
  public byte[] encode(byte[] data) {
    return codec().encode(data);
  }

  @Override
  public byte[] decode(byte[] encoded, int originalLength) {
    return codec().decode(encoded, originalLength);
  }

  /** Makes the codec now: one that a configuration chose fails the start, not its first record. */
  void makeNow() {
    try {
      codec();
    } catch (SerializationException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      if (e.getCause() instanceof LinkageError cause) {
        throw cause;
      }
      throw e;
    }
  }

  private Codec codec() {
    Codec codec = made;
    if (codec == null) {
      synchronized (this) {
        codec = made;
        if (codec == null) {
          codec = make();
          made = codec;
        }
      }
    }
    return codec;
  }

  private Codec make() {
    Codec codec;
    try {
      codec = factory.create(null);
    } catch (RuntimeException | LinkageError e) {
      throw new SerializationException(
          "The installed codec '" + name + "' (id " + id + ") could not be made: " + e, e);
    }
    if (codec.id() != id) {
      throw new SerializationException(
          "The installed codec '"
              + name
              + "' declares id "
              + id
              + " but made a codec with id "
              + codec.id()
              + "; its factory is wrong");
    }
    return codec;
  }
}
