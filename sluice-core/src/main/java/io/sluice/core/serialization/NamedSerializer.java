package io.sluice.core.serialization;

/**
 * A serializer and codec under a name, as under {@code serialization.serializers}: the application
 * writes with one of them by default ({@code serialization.default}) and a store or queue may name
 * another ({@link StoredValues#named(String)}). Reading never depends on the name: the record's
 * header names the serializer and codec.
 *
 * @param name the name stores and queues use ({@code compact})
 * @param serializer the serializer kind ({@code jdk}, {@code kryo}, {@code fory})
 * @param codec the codec ({@code none}, {@code deflate}, {@code gzip}, {@code lz4}, {@code zstd})
 * @param level the codec's level, or null for the codec's own default
 */
public record NamedSerializer(String name, String serializer, String codec, Integer level) {

  /** {@code kryo + zstd level 3}. */
  public String describe() {
    return serializer + " + " + codec + (level == null ? "" : " level " + level);
  }
}
