package io.sluice.cli;

import io.sluice.batch.BatchNodeWork;
import io.sluice.batch.BatchProgress;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;

/**
 * A running batch instance's progress as the user sees it: a bar redrawn in place on a terminal,
 * plain lines every few seconds otherwise (a log, a pipe), or nothing.
 */
final class ProgressDisplay {

  /** How progress is shown ({@code --progress}). */
  enum Style {
    /** A bar on a terminal, lines otherwise. */
    AUTO,
    /** A bar redrawn in place. */
    BAR,
    /** A line every few seconds. */
    LINES,
    /** Nothing. */
    NONE
  }

  private static final int BAR_WIDTH = 24;
  private static final Duration BAR_EVERY = Duration.ofMillis(200);
  private static final Duration LINE_EVERY = Duration.ofSeconds(5);

  private final PrintWriter out;
  private final Style style;
  private int drawn;

  /** Shows progress on {@code out} in {@code style}; AUTO picks the bar on a terminal. */
  ProgressDisplay(PrintWriter out, Style style) {
    this.out = out;
    this.style = style == Style.AUTO ? (System.console() != null ? Style.BAR : Style.LINES) : style;
  }

  /** How long to wait between two {@link #show} calls. */
  Duration every() {
    return style == Style.BAR ? BAR_EVERY : LINE_EVERY;
  }

  /** Shows {@code progress}: redraws the bar, or prints a line. */
  void show(BatchProgress progress) {
    switch (style) {
      case BAR -> {
        String line = bar(progress);
        // Padded over what the last one drew, so a shorter line leaves nothing behind.
        out.print("\r" + line + " ".repeat(Math.max(0, drawn - line.length())));
        drawn = line.length();
        out.flush();
      }
      case LINES -> {
        out.println("  " + text(progress));
        out.flush();
      }
      default -> {}
    }
  }

  /** Ends the display with the last progress, so that what follows starts on a line of its own. */
  void finish(BatchProgress progress) {
    if (style == Style.BAR) {
      show(progress);
      out.println();
      out.flush();
    }
  }

  /** {@code [#########---------------] 37% 370,000/1,000,000 215,342 rec/s ETA 3s 12 failed}. */
  static String bar(BatchProgress p) {
    if (p.expected().isEmpty() || p.expected().getAsLong() == 0) {
      return text(p);
    }
    long expected = p.expected().getAsLong();
    double done = Math.min(1, (double) p.processed() / expected);
    int filled = (int) Math.round(done * BAR_WIDTH);
    return String.format(
            Locale.ROOT,
            "[%s%s] %3d%%  %,d/%,d  %,.0f rec/s  %s  %,d failed",
            "#".repeat(filled),
            "-".repeat(BAR_WIDTH - filled),
            (int) Math.floor(done * 100),
            p.processed(),
            expected,
            p.rate(),
            p.eta().map(eta -> "ETA " + JobText.age(eta)).orElse("ETA -"),
            p.failed())
        + nodes(p);
  }

  /** {@code on 3 nodes: host-a 34%, host-b 33%, host-c 33%}: empty for one process's run. */
  static String nodes(BatchProgress p) {
    if (p.nodes().isEmpty()) {
      return "";
    }
    long all = p.nodes().stream().mapToLong(BatchNodeWork::processed).sum();
    StringBuilder line =
        new StringBuilder("  on ")
            .append(p.nodes().size())
            .append(p.nodes().size() == 1 ? " node: " : " nodes: ");
    for (int i = 0; i < p.nodes().size(); i++) {
      BatchNodeWork node = p.nodes().get(i);
      line.append(i == 0 ? "" : ", ")
          .append(node.node())
          .append(' ')
          .append(all == 0 ? 0 : node.processed() * 100 / all)
          .append('%');
    }
    return line.toString();
  }

  /**
   * {@code processed 370,000 of 1,000,000 (37%), loaded 400,000, 215,342 rec/s, ETA 3s, 12 failed}.
   */
  static String text(BatchProgress p) {
    String of =
        p.expected().isPresent()
            ? String.format(
                Locale.ROOT,
                " of %,d (%d%%)",
                p.expected().getAsLong(),
                p.expected().getAsLong() == 0
                    ? 100
                    : p.processed() * 100 / p.expected().getAsLong())
            : "";
    return String.format(
            Locale.ROOT,
            "processed %,d%s, loaded %,d, %,.0f rec/s%s, %,d failed",
            p.processed(),
            of,
            p.loaded(),
            p.rate(),
            p.eta().map(eta -> ", ETA " + JobText.age(eta)).orElse(""),
            p.failed())
        + nodes(p);
  }
}
