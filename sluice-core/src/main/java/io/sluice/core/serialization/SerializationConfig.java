package io.sluice.core.serialization;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.serialization.spi.ClassAllowList;
import io.sluice.core.serialization.spi.SerializerSettings;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The serialization settings of one application, as under {@code serialization:}: the named
 * serializers (each a serializer kind, a codec and its level), the one written with by default, the
 * classes allowed beyond the defaults, and the size and depth limits of what is read. Built with
 * {@link #builder()}, which checks every rule at {@link Builder#build()}; whether the serializer
 * and codec names are installed is checked by {@link StoredValues}.
 *
 * <p>Unless {@code serialization.default} names a serializer defined here, the application writes
 * with the built-in one named {@value #DEFAULT_NAME}, whose kind and codec are detected at start:
 * {@value #FASTEST_SAFE_SERIALIZER} + {@value #FASTEST_SAFE_CODEC} when sluice-serializers is
 * installed, {@value #DEFAULT_SERIALIZER} + {@value #DEFAULT_CODEC} otherwise. Immutable.
 */
public final class SerializationConfig {

  /** The name of the built-in serializer written with unless another is chosen: {@code default}. */
  public static final String DEFAULT_NAME = "default";

  /** The built-in serializer when only sluice-core is installed: {@code jdk}. */
  public static final String DEFAULT_SERIALIZER = JdkSerializerFactory.NAME;

  /** The built-in codec when only sluice-core is installed: {@code none}. */
  public static final String DEFAULT_CODEC = NoneCodecFactory.NAME;

  /** The built-in serializer when sluice-serializers is installed: the fastest one that is safe. */
  // decided by SerializerBenchmark, see docs/benchmarks.md
  public static final String FASTEST_SAFE_SERIALIZER = "fory";

  /** The built-in codec when sluice-serializers is installed: the fastest one that is safe. */
  // decided by SerializerBenchmark, see docs/benchmarks.md
  public static final String FASTEST_SAFE_CODEC = NoneCodecFactory.NAME;

  /** The default maximum size: 64 MiB. */
  public static final int DEFAULT_MAX_SIZE = 64 * 1024 * 1024;

  /** The default maximum depth: 100. */
  public static final int DEFAULT_MAX_DEPTH = 100;

  /** The largest maximum size: a record must fit a Java array, header included. */
  public static final int LARGEST_MAX_SIZE = Integer.MAX_VALUE - 64;

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]*");

  private final String defaultName;
  private final Map<String, NamedSerializer> serializers;
  private final List<String> allow;
  private final int maxSize;
  private final int maxDepth;
  private final boolean shorthand;

  private SerializationConfig(Builder b, Map<String, NamedSerializer> named) {
    this.defaultName = b.defaultName;
    this.serializers = Collections.unmodifiableMap(new LinkedHashMap<>(named));
    this.allow = List.copyOf(b.allow);
    this.maxSize = (int) b.maxSize;
    this.maxDepth = (int) b.maxDepth;
    this.shorthand = b.shorthand;
  }

  /** Every default: the built-in {@code default} serializer, no extra classes, 64 MiB, 100. */
  public static SerializationConfig defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** The name of the serializer written with by default ({@code serialization.default}). */
  public String defaultName() {
    return defaultName;
  }

  /** The named serializers defined, in the order they were defined; the built-in one excluded. */
  public Map<String, NamedSerializer> serializers() {
    return serializers;
  }

  /**
   * Whether the default is the built-in {@value #DEFAULT_NAME}, whose serializer and codec are
   * detected from what is installed.
   */
  public boolean defaultIsDetected() {
    return defaultName.equals(DEFAULT_NAME) && !serializers.containsKey(DEFAULT_NAME);
  }

  /** The patterns admitted beyond {@link ClassAllowList#defaults()} ({@code com.acme.*}). */
  public List<String> allow() {
    return allow;
  }

  /** The largest serialized or encoded value written or read, in bytes. */
  public int maxSize() {
    return maxSize;
  }

  /** The deepest object graph read. */
  public int maxDepth() {
    return maxDepth;
  }

  /** The settings each serializer is made with. */
  public SerializerSettings serializerSettings() {
    return new SerializerSettings(ClassAllowList.defaults().with(allow), maxDepth, maxSize);
  }

  /** Where {@code field} (type, codec, level) of the named serializer is configured. */
  String path(String name, String field) {
    if (shorthand && name.equals(DEFAULT_NAME)) {
      return "serialization." + (field.equals("type") ? "serializer" : field);
    }
    return "serialization.serializers." + name + "." + field;
  }

  @Override
  public String toString() {
    return "SerializationConfig[default="
        + defaultName
        + ", serializers="
        + serializers.values()
        + ", allow="
        + allow
        + ", maxSize="
        + maxSize
        + ", maxDepth="
        + maxDepth
        + "]";
  }

  /** Builds a {@link SerializationConfig}; not thread-safe. */
  public static final class Builder {
    private String defaultName = DEFAULT_NAME;
    private final List<NamedSerializer> named = new ArrayList<>();
    private boolean shorthand;
    private String serializer = DEFAULT_SERIALIZER;
    private String codec = DEFAULT_CODEC;
    private Integer level;
    private List<String> allow = List.of();
    private long maxSize = DEFAULT_MAX_SIZE;
    private long maxDepth = DEFAULT_MAX_DEPTH;

    private Builder() {}

    /**
     * The named serializer written with by default, as under {@code serialization.default}: one
     * defined with {@link #serializer(String, String, String, Integer)}, or {@value #DEFAULT_NAME}
     * for the built-in one.
     */
    public Builder defaultName(String name) {
      this.defaultName = name;
      return this;
    }

    /**
     * Defines a named serializer, as under {@code serialization.serializers.<name>}: a serializer
     * kind, a codec and its level (null: the codec's default).
     */
    public Builder serializer(String name, String serializerKind, String codecName, Integer lvl) {
      named.add(new NamedSerializer(name, serializerKind, codecName, lvl));
      return this;
    }

    /**
     * Shorthand: the serializer named {@value #DEFAULT_NAME} is {@code name} with the codec set by
     * {@link #codec} ({@code none} unless set), instead of the detected one.
     */
    public Builder serializer(String name) {
      this.serializer = name;
      this.shorthand = true;
      return this;
    }

    /** Shorthand: the serializer named {@value #DEFAULT_NAME} uses this codec at its level. */
    public Builder codec(String name) {
      return codec(name, null);
    }

    /** Shorthand: the serializer named {@value #DEFAULT_NAME} uses this codec and level. */
    public Builder codec(String name, Integer codecLevel) {
      this.codec = name;
      this.level = codecLevel;
      this.shorthand = true;
      return this;
    }

    /** Patterns admitted beyond the defaults, as under {@code serialization.allow}. */
    public Builder allow(List<String> patterns) {
      this.allow = new ArrayList<>(patterns);
      return this;
    }

    /** Patterns admitted beyond the defaults. */
    public Builder allow(String... patterns) {
      return allow(List.of(patterns));
    }

    /** The largest serialized or encoded value, in bytes. */
    public Builder maxSize(long bytes) {
      this.maxSize = bytes;
      return this;
    }

    /** The deepest object graph read. */
    public Builder maxDepth(long depth) {
      this.maxDepth = depth;
      return this;
    }

    /** The configuration, or a {@link ConfigurationException} listing every broken rule. */
    public SerializationConfig build() {
      List<ConfigProblem> problems = new ArrayList<>();
      Map<String, NamedSerializer> byName = new LinkedHashMap<>();
      if (shorthand) {
        if (serializer == null || serializer.isBlank()) {
          problems.add(ConfigProblem.of("serialization.serializer", serializer, "must be named"));
        }
        if (codec == null || codec.isBlank()) {
          problems.add(ConfigProblem.of("serialization.codec", codec, "must be named"));
        }
        byName.put(DEFAULT_NAME, new NamedSerializer(DEFAULT_NAME, serializer, codec, level));
      }
      for (NamedSerializer s : named) {
        String path = "serialization.serializers." + s.name();
        if (s.name() == null || !NAME.matcher(s.name()).matches()) {
          problems.add(
              ConfigProblem.of(
                  "serialization.serializers",
                  s.name(),
                  "is not a serializer name: letters, digits, '_' and '-', starting with a letter"
                      + " or digit"));
          continue;
        }
        if (byName.putIfAbsent(s.name(), s) != null) {
          problems.add(
              ConfigProblem.of(
                  path,
                  s.name(),
                  shorthand && s.name().equals(DEFAULT_NAME)
                      ? "is defined twice: by serializer(kind)/codec(...) and by name"
                      : "is defined twice; give each serializer its own name"));
          continue;
        }
        if (s.serializer() == null || s.serializer().isBlank()) {
          problems.add(ConfigProblem.of(path + ".type", s.serializer(), "must be named"));
        }
        if (s.codec() == null || s.codec().isBlank()) {
          problems.add(ConfigProblem.of(path + ".codec", s.codec(), "must be named"));
        }
      }
      if (defaultName == null || defaultName.isBlank()) {
        problems.add(ConfigProblem.of("serialization.default", defaultName, "must be named"));
      } else if (!defaultName.equals(DEFAULT_NAME) && !byName.containsKey(defaultName)) {
        problems.add(
            ConfigProblem.of(
                "serialization.default",
                defaultName,
                "is not a defined serializer; defined: "
                    + byName.keySet()
                    + " (under serialization.serializers), or '"
                    + DEFAULT_NAME
                    + "', the built-in one"));
      }
      if (maxSize < 1 || maxSize > LARGEST_MAX_SIZE) {
        problems.add(
            ConfigProblem.of(
                "serialization.maxSize", maxSize, "must be 1 to " + LARGEST_MAX_SIZE + " bytes"));
      }
      if (maxDepth < 1 || maxDepth > 10_000) {
        problems.add(ConfigProblem.of("serialization.maxDepth", maxDepth, "must be 1 to 10000"));
      }
      problems.addAll(ClassAllowList.problems(allow, "serialization.allow"));
      if (!problems.isEmpty()) {
        throw new ConfigurationException(problems);
      }
      return new SerializationConfig(this, byName);
    }
  }
}
