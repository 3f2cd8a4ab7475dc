package io.sluice.core.serialization;

import java.util.List;
import java.util.Set;

/**
 * Which classes may be deserialized: exact names ({@code com.acme.Order}), packages with their
 * subpackages ({@code com.acme.*}), and arrays of allowed types. The defaults admit Java's value
 * types (primitives and their boxes, String, BigDecimal, BigInteger, java.time, UUID, URI, enums of
 * these packages), the java.util collections and maps, and Sluice's own {@code io.sluice.*}.
 * Immutable; shared by every serializer, so one setting governs them all.
 *
 * <p>A minimal implementation so the serializers can be tested; the fuller one replaces it.
 */
public final class ClassAllowList {

  private static final Set<String> DEFAULT_CLASSES =
      Set.of(
          "boolean",
          "byte",
          "char",
          "short",
          "int",
          "long",
          "float",
          "double",
          "java.lang.Boolean",
          "java.lang.Byte",
          "java.lang.Character",
          "java.lang.Short",
          "java.lang.Integer",
          "java.lang.Long",
          "java.lang.Float",
          "java.lang.Double",
          "java.lang.String",
          "java.lang.Number",
          "java.lang.Object",
          "java.net.URI");

  private static final List<String> DEFAULT_PACKAGES =
      List.of("java.math.", "java.time.", "java.util.", "io.sluice.");

  private final List<String> patterns;

  private ClassAllowList(List<String> patterns) {
    this.patterns = List.copyOf(patterns);
  }

  /** The defaults described above. */
  public static ClassAllowList defaults() {
    return new ClassAllowList(List.of());
  }

  /** These defaults plus {@code extra} patterns (as written under serialization.allow). */
  public ClassAllowList with(List<String> extra) {
    return new ClassAllowList(extra);
  }

  /** The user's patterns, as given. */
  public List<String> patterns() {
    return patterns;
  }

  /** Whether {@code className} (a binary name, arrays as {@code [Lcom.acme.Order;}) is admitted. */
  public boolean isAllowed(String className) {
    String name = className;
    while (name.startsWith("[")) {
      name = name.substring(1);
    }
    if (name.length() == 1 && "ZBCSIJFD".contains(name)) {
      return true;
    }
    if (name.startsWith("L") && name.endsWith(";")) {
      name = name.substring(1, name.length() - 1);
    }
    if (DEFAULT_CLASSES.contains(name) || matchesAny(DEFAULT_PACKAGES, name)) {
      return true;
    }
    for (String pattern : patterns) {
      if (pattern.endsWith(".*")
          ? name.startsWith(pattern.substring(0, pattern.length() - 1))
          : name.equals(pattern)) {
        return true;
      }
    }
    return false;
  }

  private static boolean matchesAny(List<String> prefixes, String name) {
    for (String prefix : prefixes) {
      if (name.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /** Throws {@link ClassNotAllowedException} when {@code className} is not admitted. */
  public void check(String className) {
    if (!isAllowed(className)) {
      throw new ClassNotAllowedException(className);
    }
  }
}
