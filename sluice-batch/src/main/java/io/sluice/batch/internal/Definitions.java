package io.sluice.batch.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * What differs between two readable definitions of a batch job ({@code BatchJob#definitionText}).
 */
public final class Definitions {

  private Definitions() {}

  /**
   * The differences between {@code theirs} (the running instance's; null when it was created before
   * definitions were kept readable) and {@code ours}, named part by part: the block size, each step
   * by its place, the output.
   */
  public static String differences(String theirs, String ours) {
    if (theirs == null) {
      return "the instance's steps are not known readably (it began before Sluice kept them);"
          + " its definition's fingerprint differs from this configuration's";
    }
    String[] a = theirs.split("\\|", -1);
    String[] b = ours.split("\\|", -1);
    List<String> differences = new ArrayList<>();
    int steps = 0;
    for (int i = 0; i < Math.max(a.length, b.length); i++) {
      String there = i < a.length ? a[i] : null;
      String here = i < b.length ? b[i] : null;
      boolean step =
          (there == null || !there.startsWith("output:") && !there.startsWith("blockSize="))
              && (here == null || !here.startsWith("output:") && !here.startsWith("blockSize="));
      if (step) {
        steps++;
      }
      if (there != null && there.equals(here)) {
        continue;
      }
      String what = step ? "step " + steps : name(there != null ? there : here);
      differences.add(what + " is " + show(here) + " here, " + show(there) + " in the instance");
    }
    return differences.isEmpty() ? "none found" : String.join("; ", differences);
  }

  private static String name(String part) {
    if (part.startsWith("blockSize=")) {
      return "the block size";
    }
    return "the output";
  }

  private static String show(String part) {
    if (part == null) {
      return "absent";
    }
    if (part.startsWith("blockSize=")) {
      return part.substring("blockSize=".length());
    }
    if (part.startsWith("output:")) {
      return "'" + part.substring("output:".length()) + "'";
    }
    String[] bits = part.split(":", -1);
    return "'"
        + bits[0]
        + "' (accept "
        + (bits.length > 1 ? bits[1] : "?")
        + (bits.length > 2 && !"null".equals(bits[2]) ? " " + bits[2] : "")
        + (bits.length > 3 && !"-".equals(bits[3]) ? ", aggregator of " + bits[3] : "")
        + ")";
  }
}
