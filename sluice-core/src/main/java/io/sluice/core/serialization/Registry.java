package io.sluice.core.serialization;

import io.sluice.core.ConfigProblem;
import io.sluice.core.serialization.spi.Codec;
import io.sluice.core.serialization.spi.ObjectSerializer;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The serializers and codecs by name and id, shared by every view of one {@link StoredValues}. */
final class Registry {
  final Map<String, ObjectSerializer> serializers;
  final Map<String, Codec> codecs;
  final ObjectSerializer[] serializersById = new ObjectSerializer[256];
  final Codec[] codecsById = new Codec[256];

  Registry(Map<String, ObjectSerializer> serializers, Map<String, Codec> codecs) {
    this.serializers = Map.copyOf(serializers);
    this.codecs = Map.copyOf(codecs);
    serializers.values().forEach(s -> serializersById[s.id()] = s);
    codecs.values().forEach(c -> codecsById[c.id()] = c);
  }

  ObjectSerializer serializer(String name, String path, List<ConfigProblem> problems) {
    ObjectSerializer found = name == null ? null : serializers.get(name);
    if (found == null) {
      problems.add(
          ConfigProblem.of(
              path,
              name,
              "is not an installed serializer; installed: "
                  + serializerList()
                  + ("kryo".equals(name) || "fory".equals(name)
                      ? ". kryo and fory come with sluice-serializers: add it"
                      : "")));
    }
    return found;
  }

  Codec codec(String name, String path, List<ConfigProblem> problems) {
    Codec found = name == null ? null : codecs.get(name);
    if (found == null) {
      problems.add(
          ConfigProblem.of(
              path,
              name,
              "is not an installed codec; installed: "
                  + codecList()
                  + ("lz4".equals(name) || "zstd".equals(name)
                      ? ". lz4 and zstd come with sluice-serializers: add it"
                      : "")));
    }
    return found;
  }

  String serializerList() {
    return new TreeMap<>(serializers)
        .values().stream()
            .map(s -> s.name() + " (" + s.id() + ")")
            .collect(Collectors.joining(", ", "[", "]"));
  }

  String codecList() {
    return new TreeMap<>(codecs)
        .values().stream()
            .map(c -> c.name() + " (" + c.id() + ")")
            .collect(Collectors.joining(", ", "[", "]"));
  }
}
