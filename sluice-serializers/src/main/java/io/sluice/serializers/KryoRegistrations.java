package io.sluice.serializers;

import com.esotericsoftware.kryo.Kryo;
import io.sluice.core.RowMap;
import io.sluice.core.SmallMap;
import io.sluice.core.store.StoredMessage;
import io.sluice.serializers.BoundedSerializers.BoundedCollectionSerializer;
import io.sluice.serializers.BoundedSerializers.BoundedMapSerializer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The Kryo registration ids Sluice assigns. They are written into stored records, so they are part
 * of the Kryo format: an id is never reused or moved; new types get new ids at the end, and
 * changing an existing one means raising {@link KryoSerializer#FORMAT_VERSION}.
 *
 * <p>Kryo itself owns ids 0 to 9 (int, String, float, boolean, byte, char, short, long, double,
 * void). Sluice's start at {@link #FIRST_ID}; every other class is written by name.
 */
final class KryoRegistrations {

  /** The first id Sluice assigns. */
  static final int FIRST_ID = 20;

  /** The registered types, in id order from {@link #FIRST_ID}: append only. */
  static final List<Class<?>> TYPES =
      List.of(
          byte[].class, // 20
          int[].class, // 21
          long[].class, // 22
          double[].class, // 23
          Object[].class, // 24
          String[].class, // 25
          ArrayList.class, // 26
          LinkedList.class, // 27
          ArrayDeque.class, // 28
          HashMap.class, // 29
          LinkedHashMap.class, // 30
          TreeMap.class, // 31
          HashSet.class, // 32
          LinkedHashSet.class, // 33
          TreeSet.class, // 34
          BigDecimal.class, // 35
          BigInteger.class, // 36
          UUID.class, // 37
          URI.class, // 38
          Date.class, // 39
          Instant.class, // 40
          Duration.class, // 41
          LocalDate.class, // 42
          LocalTime.class, // 43
          LocalDateTime.class, // 44
          OffsetDateTime.class, // 45
          ZonedDateTime.class, // 46
          StoredMessage.class, // 47
          SmallMap.class, // 48: a message's variables or attributes, read as a LinkedHashMap
          RowMap.class); // 49: a row of a query's result, read as a LinkedHashMap

  // Kryo allocates these at the size the input declares, so the size is checked first.
  private static final Set<Class<?>> PRESIZED_COLLECTIONS =
      Set.of(ArrayList.class, HashSet.class, LinkedHashSet.class);
  private static final Set<Class<?>> PRESIZED_MAPS = Set.of(HashMap.class, LinkedHashMap.class);

  private KryoRegistrations() {}

  /** Registers {@link #TYPES} with their ids. */
  static void registerAll(Kryo kryo) {
    for (int i = 0; i < TYPES.size(); i++) {
      Class<?> type = TYPES.get(i);
      if (type == SmallMap.class || type == RowMap.class) {
        kryo.register(type, new BoundedMapSerializer(true), FIRST_ID + i);
      } else if (PRESIZED_COLLECTIONS.contains(type)) {
        kryo.register(type, new BoundedCollectionSerializer(), FIRST_ID + i);
      } else if (PRESIZED_MAPS.contains(type)) {
        kryo.register(type, new BoundedMapSerializer(), FIRST_ID + i);
      } else {
        kryo.register(type, FIRST_ID + i);
      }
    }
  }
}
