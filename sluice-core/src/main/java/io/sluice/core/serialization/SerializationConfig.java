package io.sluice.core.serialization;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import java.util.ArrayList;
import java.util.List;

/**
 * The serialization settings of one application: the default serializer and codec (with its level),
 * the classes allowed beyond the defaults, and the size and depth limits of what is read. Built
 * with {@link #builder()}, which checks every rule at {@link Builder#build()}.
 *
 * @param serializer the default serializer's name ({@code jdk}, {@code kryo}, {@code fory})
 * @param codec the default codec's name ({@code none}, {@code deflate}, {@code gzip}, {@code lz4},
 *     {@code zstd})
 * @param level the default codec's level, or null for the codec's own default
 * @param allow the patterns admitted beyond {@link ClassAllowList#defaults()} ({@code com.acme.*})
 * @param maxSize the largest serialized or encoded value written or read, in bytes
 * @param maxDepth the deepest object graph read
 */
public record SerializationConfig(
    String serializer, String codec, Integer level, List<String> allow, int maxSize, int maxDepth) {

  /** The default serializer: {@code jdk}, the one every JDK can read. */
  public static final String DEFAULT_SERIALIZER = JdkSerializerFactory.NAME;

  /** The default codec: {@code none}. */
  public static final String DEFAULT_CODEC = NoneCodecFactory.NAME;

  /** The default maximum size: 64 MiB. */
  public static final int DEFAULT_MAX_SIZE = 64 * 1024 * 1024;

  /** The default maximum depth: 100. */
  public static final int DEFAULT_MAX_DEPTH = 100;

  /** The largest maximum size: a record must fit a Java array, header included. */
  public static final int LARGEST_MAX_SIZE = Integer.MAX_VALUE - 64;

  /** A configuration; {@code allow} is copied. Prefer {@link #builder()}, which validates. */
  public SerializationConfig {
    allow = List.copyOf(allow);
  }

  /** Every default: jdk, none, no extra classes, 64 MiB, depth 100. */
  public static SerializationConfig defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** The settings each serializer is made with. */
  public SerializerSettings serializerSettings() {
    return new SerializerSettings(ClassAllowList.defaults().with(allow), maxDepth, maxSize);
  }

  /** Builds a {@link SerializationConfig}; not thread-safe. */
  public static final class Builder {
    private String serializer = DEFAULT_SERIALIZER;
    private String codec = DEFAULT_CODEC;
    private Integer level;
    private List<String> allow = List.of();
    private long maxSize = DEFAULT_MAX_SIZE;
    private long maxDepth = DEFAULT_MAX_DEPTH;

    private Builder() {}

    /** The default serializer's name. */
    public Builder serializer(String name) {
      this.serializer = name;
      return this;
    }

    /** The default codec's name, at its own default level. */
    public Builder codec(String name) {
      this.codec = name;
      this.level = null;
      return this;
    }

    /** The default codec's name and level (null: the codec's default). */
    public Builder codec(String name, Integer codecLevel) {
      this.codec = name;
      this.level = codecLevel;
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
      if (serializer == null || serializer.isBlank()) {
        problems.add(ConfigProblem.of("serialization.serializer", serializer, "must be named"));
      }
      if (codec == null || codec.isBlank()) {
        problems.add(ConfigProblem.of("serialization.codec", codec, "must be named"));
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
      return new SerializationConfig(
          serializer, codec, level, allow, (int) maxSize, (int) maxDepth);
    }
  }
}
