package io.sluice.core.serialization;

import io.sluice.core.serialization.spi.Codec;
import io.sluice.core.serialization.spi.CorruptRecordException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/** GZIP through the JDK streams; decoding never allocates more than the declared length. */
final class GzipCodec implements Codec {

  private final int level;

  GzipCodec(int level) {
    this.level = level;
  }

  @Override
  public String name() {
    return GzipCodecFactory.NAME;
  }

  @Override
  public int id() {
    return 2;
  }

  @Override
  public byte[] encode(byte[] data) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.max(64, data.length / 2));
    try (LeveledGzip gzip = new LeveledGzip(bytes, level)) {
      gzip.write(data);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // in-memory streams do not fail
    }
    return bytes.toByteArray();
  }

  @Override
  public byte[] decode(byte[] encoded, int originalLength) {
    DeflateCodec.checkRatio(name(), encoded.length, originalLength);
    byte[] out = new byte[originalLength];
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(encoded), 8192)) {
      int filled = in.readNBytes(out, 0, originalLength);
      DeflateCodec.checkFilled(name(), filled, originalLength);
      if (in.read() != -1) {
        throw new CorruptRecordException(
            "Codec 'gzip' decodes to more than the "
                + originalLength
                + " bytes the header declares");
      }
    } catch (IOException e) {
      throw new CorruptRecordException(
          "Codec 'gzip' cannot decode its "
              + encoded.length
              + " bytes: "
              + e.getClass().getSimpleName()
              + " "
              + e.getMessage(),
          e);
    }
    return out;
  }

  private static final class LeveledGzip extends GZIPOutputStream {
    LeveledGzip(OutputStream out, int level) throws IOException {
      super(out, 8192);
      def.setLevel(level);
    }
  }
}
