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
  private SerializationException failure;

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
    codec();
  }

  /**
   * The codec, made at the first call; a codec that could not be made is not tried again at every
   * record (a native library that failed to load fails the same way): each call fails with the
   * first failure's reason.
   */
  private Codec codec() {
    Codec codec = made;
    if (codec == null) {
      synchronized (this) {
        codec = made;
        if (codec == null) {
          if (failure == null) {
            try {
              made = codec = make();
              return codec;
            } catch (SerializationException e) {
              failure = e;
            }
          }
          throw new SerializationException(failure.getMessage(), failure.getCause());
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
