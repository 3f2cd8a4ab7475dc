package io.sluice.core.serialization.spi;

/**
 * What every serializer is made with.
 *
 * @param allowList the classes that may be deserialized
 * @param maxDepth the deepest object graph accepted when reading (JDK: ObjectInputFilter depth)
 * @param maxBytes the largest serialized form accepted when reading
 */
public record SerializerSettings(ClassAllowList allowList, int maxDepth, long maxBytes) {

  /** The defaults: default allow-list, depth 100, 64 MiB. */
  public static SerializerSettings defaults() {
    return new SerializerSettings(ClassAllowList.defaults(), 100, 64L * 1024 * 1024);
  }
}
