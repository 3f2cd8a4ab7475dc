package io.sluice.config.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Where each value of a configuration file was written: dotted path ({@code flows[0].name}) to line
 * and column. Jackson's tree keeps no locations, so the reader records them as it builds the tree.
 */
public final class SourceMap {

  /** The path of a problem of the whole file (it is empty, or not YAML). */
  public static final String FILE = "(file)";

  private final String fileName;
  // Sorted, so that the paths under one are found as a range (an alias copies them).
  private final NavigableMap<String, String> positions = new TreeMap<>();

  /** The positions of the file {@code fileName}, none recorded yet. */
  public SourceMap(String fileName) {
    this.fileName = fileName;
  }

  /** Records where {@code path} was written, unless it was recorded already. */
  public void put(String path, int line, int column) {
    positions.putIfAbsent(path, fileName + ":" + line + ":" + column);
  }

  /**
   * Gives the values under {@code to} the positions of those under {@code from}, which an alias or
   * a merge key copied there; positions already recorded (the key holding the alias) stay.
   */
  public void copy(String from, String to) {
    List<Map.Entry<String, String>> under = new ArrayList<>();
    for (Map.Entry<String, String> entry :
        positions.subMap(from, true, from + Character.MAX_VALUE, false).entrySet()) {
      String path = entry.getKey();
      if (path.length() == from.length()
          || path.charAt(from.length()) == '.'
          || path.charAt(from.length()) == '[') {
        under.add(entry);
      }
    }
    for (Map.Entry<String, String> entry : under) {
      positions.putIfAbsent(to + entry.getKey().substring(from.length()), entry.getValue());
    }
  }

  /**
   * The position of {@code path}, or of its nearest ancestor that was written (a missing key is
   * reported where its parent is), or of the file's start.
   */
  public String locate(String path) {
    for (String p = path; ; p = parent(p)) {
      String found = positions.get(p);
      if (found != null) {
        return found;
      }
      if (p.isEmpty()) {
        return fileName + ":1:1";
      }
    }
  }

  /** The file's name, as problems name it. */
  public String fileName() {
    return fileName;
  }

  /** {@code a.b[2]} → {@code a.b} → {@code a} → the root, {@code ""}. */
  public static String parent(String path) {
    int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
    return cut < 0 ? "" : path.substring(0, cut);
  }

  /** The path of {@code key} under {@code path} ({@code a.b} and {@code c}: {@code a.b.c}). */
  public static String child(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** The path of item {@code index} of the list at {@code path} ({@code a[2]}). */
  public static String item(String path, int index) {
    return path + "[" + index + "]";
  }
}
