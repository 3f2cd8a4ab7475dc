package io.sluice.core.serialization;

import java.util.List;

/**
 * Which classes may be deserialized: exact names ({@code com.acme.Order}), packages with their
 * subpackages ({@code com.acme.*}), and arrays of allowed types. The defaults admit Java's value
 * types (primitives and their boxes, String, BigDecimal, BigInteger, java.time, UUID, URI, enums of
 * these packages), the java.util collections and maps, and Sluice's own {@code io.sluice.*}.
 * Immutable; shared by every serializer, so one setting governs them all.
 *
 * <p>STUB: the signatures are fixed, the body is being written.
 */
public final class ClassAllowList {

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
    throw new UnsupportedOperationException("being written");
  }

  /** Throws {@link ClassNotAllowedException} when {@code className} is not admitted. */
  public void check(String className) {
    if (!isAllowed(className)) {
      throw new ClassNotAllowedException(className);
    }
  }
}
