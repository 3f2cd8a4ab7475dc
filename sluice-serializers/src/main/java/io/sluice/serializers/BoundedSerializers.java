package io.sluice.serializers;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.serializers.CollectionSerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.ObjectArraySerializer;
import com.esotericsoftware.kryo.serializers.MapSerializer;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Kryo's collection, map and object-array serializers with their declared sizes checked against the
 * bytes left ({@link BoundedInput}) before anything is allocated for them.
 */
final class BoundedSerializers {

  private BoundedSerializers() {}

  /** A collection serializer that checks the element count first. */
  @SuppressWarnings("rawtypes")
  static final class BoundedCollectionSerializer extends CollectionSerializer<Collection> {
    @Override
    protected Collection create(
        Kryo kryo, Input input, Class<? extends Collection> type, int size) {
      if (input instanceof BoundedInput bounded) {
        bounded.checkCount(size);
      }
      return super.create(kryo, input, type, size);
    }
  }

  /**
   * A map serializer that checks the entry count first. One made {@code asLinkedHashMap} reads a
   * map of Sluice's own types (a message's {@link io.sluice.core.SmallMap}, a row's {@link
   * io.sluice.core.RowMap}) back as a {@link LinkedHashMap} of the same entries in the same order,
   * since Kryo fills the map it makes one entry at a time.
   */
  @SuppressWarnings("rawtypes")
  static final class BoundedMapSerializer extends MapSerializer<Map> {
    private final boolean asLinkedHashMap;

    BoundedMapSerializer() {
      this(false);
    }

    BoundedMapSerializer(boolean asLinkedHashMap) {
      this.asLinkedHashMap = asLinkedHashMap;
    }

    @Override
    protected Map create(Kryo kryo, Input input, Class<? extends Map> type, int size) {
      if (input instanceof BoundedInput bounded) {
        bounded.checkCount(size);
      }
      return asLinkedHashMap
          ? LinkedHashMap.newLinkedHashMap(size)
          : super.create(kryo, input, type, size);
    }
  }

  /** An object-array serializer that checks the length (written plus one) first. */
  static final class BoundedObjectArraySerializer extends ObjectArraySerializer {
    BoundedObjectArraySerializer(Kryo kryo, Class<?> type) {
      super(kryo, type);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Object[] read(Kryo kryo, Input input, Class type) {
      if (input instanceof BoundedInput bounded) {
        bounded.checkVarIntCount(1);
      }
      return super.read(kryo, input, type);
    }
  }
}
