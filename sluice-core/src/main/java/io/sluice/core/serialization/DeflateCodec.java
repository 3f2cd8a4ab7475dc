package io.sluice.core.serialization;

import io.sluice.core.serialization.spi.Codec;
import io.sluice.core.serialization.spi.CorruptRecordException;
import java.io.ByteArrayOutputStream;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/** zlib through Deflater/Inflater; decoding never allocates more than the declared length. */
final class DeflateCodec implements Codec {

  /**
   * Deflate cannot expand data more than 1032:1 (zlib FAQ); a header declaring far more than that
   * is corrupt, and is refused before its buffer is allocated. Twice the bound, to be safe.
   */
  static final long MAX_RATIO = 2064;

  private final int level;

  DeflateCodec(int level) {
    this.level = level;
  }

  @Override
  public String name() {
    return DeflateCodecFactory.NAME;
  }

  @Override
  public int id() {
    return 1;
  }

  @Override
  public byte[] encode(byte[] data) {
    Deflater deflater = new Deflater(level);
    try {
      deflater.setInput(data);
      deflater.finish();
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, data.length / 2));
      byte[] buffer = new byte[Math.min(64 * 1024, Math.max(64, data.length))];
      while (!deflater.finished()) {
        int n = deflater.deflate(buffer);
        out.write(buffer, 0, n);
      }
      return out.toByteArray();
    } finally {
      deflater.end();
    }
  }

  @Override
  public byte[] decode(byte[] encoded, int originalLength) {
    checkRatio(name(), encoded.length, originalLength);
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(encoded);
      byte[] out = new byte[originalLength];
      int filled = inflate(inflater, out, name());
      if (inflater.getRemaining() > 0) {
        throw new CorruptRecordException(
            "Codec 'deflate' found "
                + inflater.getRemaining()
                + " bytes after the end of its stream of "
                + encoded.length);
      }
      checkFilled(name(), filled, originalLength);
      return out;
    } finally {
      inflater.end();
    }
  }

  static void checkRatio(String codec, int encodedLength, int originalLength) {
    if (originalLength < 0) {
      throw new CorruptRecordException(
          "Codec '" + codec + "' was given a negative original length: " + originalLength);
    }
    if (originalLength > encodedLength * MAX_RATIO + 1024) {
      throw new CorruptRecordException(
          "Codec '"
              + codec
              + "' cannot restore "
              + originalLength
              + " bytes, as the header declares, from "
              + encodedLength
              + " encoded bytes");
    }
  }

  static void checkFilled(String codec, int filled, int originalLength) {
    if (filled != originalLength) {
      throw new CorruptRecordException(
          "Codec '"
              + codec
              + "' decoded "
              + filled
              + " bytes, but the header declares "
              + originalLength);
    }
  }

  /** Inflates into {@code out} until the stream ends; refuses streams longer than {@code out}. */
  static int inflate(Inflater inflater, byte[] out, String codec) {
    int filled = 0;
    byte[] probe = new byte[1];
    int idle = 0;
    try {
      while (!inflater.finished()) {
        int n;
        if (filled < out.length) {
          n = inflater.inflate(out, filled, out.length - filled);
          filled += n;
        } else {
          n = inflater.inflate(probe);
          if (n > 0) {
            throw new CorruptRecordException(
                "Codec '"
                    + codec
                    + "' decodes to more than the "
                    + out.length
                    + " bytes the header declares");
          }
        }
        if (n == 0 && !inflater.finished()) {
          if (inflater.needsInput()) {
            throw new CorruptRecordException(
                "Codec '"
                    + codec
                    + "' input is truncated: it ends after "
                    + filled
                    + " of "
                    + out.length
                    + " decoded bytes");
          }
          if (inflater.needsDictionary() || ++idle > 2) {
            throw new CorruptRecordException(
                "Codec '" + codec + "' cannot decode its input (it asks for a dictionary)");
          }
        } else {
          idle = 0;
        }
      }
    } catch (DataFormatException e) {
      throw new CorruptRecordException(
          "Codec '" + codec + "' input is not a valid stream: " + e.getMessage(), e);
    }
    return filled;
  }
}
