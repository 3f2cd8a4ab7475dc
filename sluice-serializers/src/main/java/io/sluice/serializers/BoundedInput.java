package io.sluice.serializers;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;

/**
 * A Kryo input over a whole record that refuses counts larger than the bytes left before it
 * allocates for them. Every element takes at least one byte, so a corrupt length fails here as a
 * {@link KryoException} instead of allocating gigabytes.
 */
final class BoundedInput extends Input {

  BoundedInput(byte[] bytes) {
    super(bytes);
  }

  /** Fails when {@code count} elements cannot fit in the bytes left. */
  void checkCount(int count) {
    if (count < 0 || count > limit - position) {
      throw new KryoException(
          "Declared count " + count + " exceeds the " + (limit - position) + " bytes left");
    }
  }

  /** Reads a length-prefixed count without consuming it, then checks it. */
  void checkVarIntCount(int adjust) {
    int start = position;
    int value = readVarInt(true);
    setPosition(start);
    if (value != 0) { // 0 is null
      checkCount(value - adjust);
    }
  }

  @Override
  public String readString() {
    require(1);
    if ((buffer[position] & 0x80) != 0) {
      int start = position;
      int charCount = readVarIntFlag(true);
      setPosition(start);
      if (charCount > 1) { // 0 is null, 1 is empty
        checkCount(charCount - 1);
      }
    }
    return super.readString();
  }

  @Override
  public StringBuilder readStringBuilder() {
    require(1);
    if ((buffer[position] & 0x80) != 0) {
      int start = position;
      int charCount = readVarIntFlag(true);
      setPosition(start);
      if (charCount > 1) { // 0 is null, 1 is empty
        checkCount(charCount - 1);
      }
    }
    return super.readStringBuilder();
  }

  @Override
  public byte[] readBytes(int length) {
    checkCount(length);
    return super.readBytes(length);
  }

  @Override
  public int[] readInts(int length) {
    checkCount(length);
    return super.readInts(length);
  }

  @Override
  public int[] readInts(int length, boolean optimizePositive) {
    checkCount(length);
    return super.readInts(length, optimizePositive);
  }

  @Override
  public long[] readLongs(int length) {
    checkCount(length);
    return super.readLongs(length);
  }

  @Override
  public long[] readLongs(int length, boolean optimizePositive) {
    checkCount(length);
    return super.readLongs(length, optimizePositive);
  }

  @Override
  public float[] readFloats(int length) {
    checkCount(length);
    return super.readFloats(length);
  }

  @Override
  public double[] readDoubles(int length) {
    checkCount(length);
    return super.readDoubles(length);
  }

  @Override
  public short[] readShorts(int length) {
    checkCount(length);
    return super.readShorts(length);
  }

  @Override
  public char[] readChars(int length) {
    checkCount(length);
    return super.readChars(length);
  }

  @Override
  public boolean[] readBooleans(int length) {
    checkCount(length);
    return super.readBooleans(length);
  }
}
