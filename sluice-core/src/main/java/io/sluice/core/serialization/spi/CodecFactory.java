package io.sluice.core.serialization.spi;

/**
 * Makes a codec at a compression level; found with {@link java.util.ServiceLoader} (list the
 * implementation in {@code META-INF/services/io.sluice.core.serialization.spi.CodecFactory}).
 */
public interface CodecFactory {

  /** The name of the codecs it makes, as in configuration ({@code zstd}). */
  String name();

  /**
   * A codec at {@code level}; null means the codec's default (ZSTD 1). A level the codec does not
   * support is a {@link io.sluice.core.ConfigurationException} naming it and the valid range.
   */
  Codec create(Integer level);

  /**
   * The id of the codecs it makes, when it knows it without making one; -1 (the default) when it
   * does not. A codec whose id is known is made when a record first needs it, not at start: a codec
   * that loads a native library (LZ4, ZSTD) costs a start that never uses it nothing.
   */
  default int id() {
    return -1;
  }
}
