package io.sluice.core.serialization.spi;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which classes may be deserialized: exact names ({@code com.acme.Order}), packages with their
 * subpackages ({@code com.acme.*}), nested classes of a class ({@code com.acme.Order$*}), and
 * arrays of allowed types ({@code [Lcom.acme.Order;}, {@code [[I}). The defaults admit Java's value
 * types (primitives and their boxes, String, BigDecimal, BigInteger, java.time, UUID, URI, enums of
 * these packages), the java.util collections and maps, and Sluice's own {@code io.sluice.*}.
 * Immutable; shared by every serializer, so one setting governs them all.
 *
 * <p>The defaults name classes one by one where a package also holds dangerous ones: {@code
 * java.lang.*} or {@code java.util.*} wholesale would admit {@code Runtime}, {@code ProcessBuilder}
 * or the comparators and proxies gadget chains are built from. A bare {@code *} is refused for the
 * same reason.
 */
public final class ClassAllowList {

  /** Exact binary names the defaults admit. */
  private static final Set<String> DEFAULT_NAMES =
      Set.of(
          // primitives, as serializers name them
          "boolean",
          "byte",
          "char",
          "short",
          "int",
          "long",
          "float",
          "double",
          // java.lang value types (Number and Enum: JDK streams describe superclasses too)
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
          "java.lang.Enum",
          "java.lang.Object",
          // java.util values, collections and maps
          "java.util.UUID",
          "java.util.Date",
          "java.util.Locale",
          "java.util.Currency",
          "java.util.BitSet",
          "java.util.Map$Entry", // HashMap checks its table as a Map$Entry[] when read
          // The collection interfaces: declared field types, which serializers such as Fory check
          // by name; an interface cannot be instantiated, so admitting it admits nothing.
          "java.util.Collection",
          "java.util.List",
          "java.util.Set",
          "java.util.SortedSet",
          "java.util.NavigableSet",
          "java.util.SequencedCollection",
          "java.util.SequencedSet",
          "java.util.SequencedMap",
          "java.util.Queue",
          "java.util.Deque",
          "java.util.Map",
          "java.util.SortedMap",
          "java.util.NavigableMap",
          "java.util.concurrent.ConcurrentMap",
          "java.util.ArrayList",
          "java.util.LinkedList",
          "java.util.ArrayDeque",
          "java.util.PriorityQueue",
          "java.util.Vector",
          "java.util.Stack",
          "java.util.HashMap",
          "java.util.LinkedHashMap",
          "java.util.TreeMap",
          "java.util.Hashtable",
          "java.util.IdentityHashMap",
          "java.util.EnumMap",
          "java.util.HashSet",
          "java.util.LinkedHashSet",
          "java.util.TreeSet",
          "java.util.CollSer",
          "java.util.Comparators$NaturalOrderComparator",
          "java.util.concurrent.ConcurrentHashMap",
          "java.util.concurrent.ConcurrentHashMap$Segment",
          "java.util.concurrent.ConcurrentSkipListMap",
          "java.util.concurrent.ConcurrentSkipListSet",
          "java.util.concurrent.ConcurrentLinkedQueue",
          "java.util.concurrent.ConcurrentLinkedDeque",
          "java.util.concurrent.CopyOnWriteArrayList",
          "java.util.concurrent.CopyOnWriteArraySet",
          "java.util.concurrent.TimeUnit",
          "java.net.URI");

  /** Name prefixes the defaults admit: packages with subpackages, and nested classes. */
  private static final List<String> DEFAULT_PREFIXES =
      List.of(
          "java.math.",
          "java.time.",
          "java.util.ImmutableCollections$",
          "java.util.Collections$",
          "java.util.Arrays$ArrayList",
          "java.util.AbstractMap$Simple",
          "java.util.EnumSet$SerializationProxy",
          "io.sluice.");

  private static final String IDENTIFIER =
      "\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*";
  private static final Pattern VALID_PATTERN =
      Pattern.compile(IDENTIFIER + "(\\." + IDENTIFIER + ")*(\\.\\*|\\$\\*)?");

  private static final ClassAllowList DEFAULTS = new ClassAllowList(List.of());

  private final List<String> patterns;
  private final Set<String> exact;
  private final List<String> prefixes;

  private ClassAllowList(List<String> patterns) {
    this.patterns = List.copyOf(patterns);
    Set<String> names = new HashSet<>(DEFAULT_NAMES);
    List<String> starts = new ArrayList<>(DEFAULT_PREFIXES);
    for (String pattern : this.patterns) {
      if (pattern.endsWith(".*") || pattern.endsWith("$*")) {
        starts.add(pattern.substring(0, pattern.length() - 1));
      } else {
        names.add(pattern);
      }
    }
    this.exact = Set.copyOf(names);
    this.prefixes = List.copyOf(starts);
  }

  /** The defaults described above. */
  public static ClassAllowList defaults() {
    return DEFAULTS;
  }

  /**
   * These defaults plus {@code extra} patterns (as written under serialization.allow). A pattern
   * that is not a binary name, optionally ending in {@code .*} or {@code $*}, is a {@link
   * ConfigurationException} listing every such pattern.
   */
  public ClassAllowList with(List<String> extra) {
    List<ConfigProblem> problems = problems(extra, "serialization.allow");
    if (!problems.isEmpty()) {
      throw new ConfigurationException(problems);
    }
    List<String> all = new ArrayList<>(patterns);
    all.addAll(extra);
    return new ClassAllowList(all);
  }

  /**
   * The problems of {@code candidates} as allow patterns, each located at {@code path[i]}; empty
   * when every one is valid.
   */
  public static List<ConfigProblem> problems(List<String> candidates, String path) {
    List<ConfigProblem> problems = new ArrayList<>();
    for (int i = 0; i < candidates.size(); i++) {
      String pattern = candidates.get(i);
      String at = path + "[" + i + "]";
      if (pattern == null || pattern.isBlank()) {
        problems.add(
            ConfigProblem.of(at, pattern, "must be a class name or a package ending in .*"));
      } else if (pattern.equals("*") || pattern.equals("**")) {
        problems.add(
            ConfigProblem.of(
                at,
                pattern,
                "would admit every class, known deserialization gadgets included;"
                    + " list your own packages instead (com.acme.*)"));
      } else if (!VALID_PATTERN.matcher(pattern).matches()) {
        problems.add(
            ConfigProblem.of(
                at,
                pattern,
                "is not a binary class name (com.acme.Order), a package (com.acme.*)"
                    + " or the nested classes of a class (com.acme.Order$*)"));
      }
    }
    return problems;
  }

  /** The user's patterns, as given. */
  public List<String> patterns() {
    return patterns;
  }

  /** Whether {@code className} (a binary name, arrays as {@code [Lcom.acme.Order;}) is admitted. */
  public boolean isAllowed(String className) {
    if (className == null || className.isEmpty()) {
      return false;
    }
    String name = className;
    if (name.charAt(0) == '[') {
      int dimensions = 0;
      while (dimensions < name.length() && name.charAt(dimensions) == '[') {
        dimensions++;
      }
      String component = name.substring(dimensions);
      if (component.length() == 1) {
        return "ZBCSIJFD".contains(component);
      }
      if (component.length() < 3 || component.charAt(0) != 'L' || !component.endsWith(";")) {
        return false;
      }
      name = component.substring(1, component.length() - 1);
    }
    if (exact.contains(name)) {
      return true;
    }
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

  @Override
  public String toString() {
    return "defaults" + (patterns.isEmpty() ? "" : " + " + patterns);
  }
}
