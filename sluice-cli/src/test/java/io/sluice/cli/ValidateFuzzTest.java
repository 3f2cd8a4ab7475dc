package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.config.ConfigLoader;
import io.sluice.config.Configuration;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.http.HttpListenerSource;
import io.sluice.jobs.JobExecutorConfig;
import io.sluice.jobs.config.JobsConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several hundred configurations made from the examples by seeded mutations (numbers at their
 * extremes, huge durations, NULs, bytes that are not UTF-8, values of another type, keys dropped or
 * repeated) go through {@code sluice validate}: each exits 0 or 2, never with a stack trace, every
 * error with its line; and what validates builds its runtime model without a throw.
 */
class ValidateFuzzTest {

  private static final long SEED = 20_261_125L;
  private static final int MUTANTS = 250;

  private static final Pattern NUMBER = Pattern.compile("(?<=[ :\\[,])-?[0-9]+(?=[ ,}\\]\\n])");
  private static final Pattern DURATION = Pattern.compile("\\b[0-9]+(ms|s|m|h|d)\\b");
  private static final Pattern VALUE = Pattern.compile("(?<=: )[^{}\\[\\],\\n]+");
  private static final Pattern ERROR_LINE = Pattern.compile("^  - \\S+:[0-9]+:[0-9]+: .+");

  private static final String[] NUMBERS = {
    "0", "-1", "2147483647", "2147483648", "9223372036854775807", "99999999999999999999", "1e400"
  };
  private static final String[] DURATIONS = {
    "0ms", "P99999999999D", "99999999999999h", "PT0S", "9223372036854775807ms", "P1D", "24h"
  };
  private static final String[] VALUES = {
    "[]", "{}", "true", "\"\"", "1.5", "null", "\"[a-\"", "\"in\\0x\"", "-", "~", "0x10", "*"
  };

  @TempDir Path work;

  @Test
  void everyMutatedExampleExitsZeroOrTwoWithItsLines() throws IOException {
    List<byte[]> examples = examples();
    Random random = new Random(SEED);
    List<String> failures = new ArrayList<>();
    int valid = 0;
    for (int i = 0; i < MUTANTS; i++) {
      byte[] mutant = examples.get(random.nextInt(examples.size()));
      int mutations = 1 + random.nextInt(3);
      for (int m = 0; m < mutations; m++) {
        mutant = mutate(mutant, random);
      }
      Path file = work.resolve("mutant-" + i + ".yaml");
      Files.write(file, mutant);
      CliRun run = CliRun.of("validate", file.toString());
      String failure = check(run, file);
      if (failure != null) {
        failures.add(
            failure
                + "\n--- "
                + file.getFileName()
                + ":\n"
                + new String(mutant, StandardCharsets.UTF_8));
      } else if (run.exitCode() == ExitCodes.OK) {
        valid++;
      }
    }
    assertThat(failures).as("mutants that broke the rules").isEmpty();
    // The mutations must leave some files valid, or the model is never built.
    assertThat(valid).as("valid mutants").isGreaterThan(MUTANTS / 20);
  }

  /** What is wrong with the outcome of validating {@code file}, or null. */
  private static String check(CliRun run, Path file) {
    if (run.exitCode() != ExitCodes.OK && run.exitCode() != ExitCodes.INVALID) {
      return "exit " + run.exitCode() + ": " + run.err();
    }
    if (run.err().contains("\tat ") || run.err().contains("unexpected error")) {
      return "a stack trace: " + run.err();
    }
    if (run.exitCode() == ExitCodes.INVALID) {
      List<String> lines = run.err().lines().filter(l -> l.startsWith("  - ")).toList();
      if (lines.isEmpty()) {
        return "exit 2 without a listed problem: " + run.err();
      }
      for (String line : lines) {
        if (!ERROR_LINE.matcher(line).matches()) {
          return "a problem without its line: " + line;
        }
      }
      return null;
    }
    try {
      buildModel(file);
      return null;
    } catch (RuntimeException e) {
      return "validated, but building the model threw " + e;
    }
  }

  /** Builds what {@code sluice run} builds before it starts anything, and reads its numbers. */
  private static void buildModel(Path file) {
    Configuration configuration = ConfigLoader.read(file, ValidateFuzzTest.class.getClassLoader());
    Application application = configuration.application().build();
    for (Flow flow : application.flows()) {
      if (flow.source() instanceof HttpListenerSource http) {
        http.server().requestTimeout().toNanos();
        http.server().idleTimeout().toNanos();
      }
    }
    JobsConfig jobs = configuration.section(JobsConfig.class);
    if (jobs.hasHandlers()) {
      JobExecutorConfig node = jobs.executorConfig();
      assertThat(Math.addExact(node.concurrency(), node.prefetch())).isPositive();
      assertThat(node.claimBatch()).isPositive();
      node.backoff(1_000).toMillis();
      jobs.priorityAging().multipliedBy(Integer.MAX_VALUE).toMillis();
    }
  }

  private static byte[] mutate(byte[] file, Random random) {
    String text = new String(file, StandardCharsets.UTF_8);
    return switch (random.nextInt(8)) {
      case 0 -> utf8(replaceOne(text, NUMBER, NUMBERS, random));
      case 1 -> utf8(replaceOne(text, DURATION, DURATIONS, random));
      case 2 -> utf8(replaceOne(text, VALUE, VALUES, random));
      case 3 -> insert(file, random, new byte[] {0});
      case 4 -> insert(file, random, new byte[] {(byte) (random.nextBoolean() ? 0xFF : 0xC3)});
      case 5 -> utf8(dropLine(text, random));
      case 6 -> utf8(repeatLine(text, random));
      default -> utf8(replaceOne(text, NUMBER, new String[] {"8081"}, random)); // shared ports
    };
  }

  private static String replaceOne(String text, Pattern pattern, String[] by, Random random) {
    List<int[]> spans = new ArrayList<>();
    Matcher m = pattern.matcher(text);
    while (m.find()) {
      spans.add(new int[] {m.start(), m.end()});
    }
    if (spans.isEmpty()) {
      return text;
    }
    int[] span = spans.get(random.nextInt(spans.size()));
    return text.substring(0, span[0]) + by[random.nextInt(by.length)] + text.substring(span[1]);
  }

  private static byte[] insert(byte[] file, Random random, byte[] bytes) {
    int at = random.nextInt(file.length + 1);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(file, 0, at);
    out.writeBytes(bytes);
    out.write(file, at, file.length - at);
    return out.toByteArray();
  }

  private static String dropLine(String text, Random random) {
    List<String> lines = new ArrayList<>(text.lines().toList());
    lines.remove(random.nextInt(lines.size()));
    return String.join("\n", lines) + "\n";
  }

  private static String repeatLine(String text, Random random) {
    List<String> lines = new ArrayList<>(text.lines().toList());
    int at = random.nextInt(lines.size());
    lines.add(at, lines.get(at));
    return String.join("\n", lines) + "\n";
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** The examples without their comment lines (numbers there would be wasted mutations). */
  private static List<byte[]> examples() throws IOException {
    try (Stream<Path> files = Files.list(Path.of("../examples"))) {
      List<byte[]> examples = new ArrayList<>();
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
        String text =
            String.join(
                    "\n",
                    Files.readAllLines(file).stream().filter(l -> !l.startsWith("#")).toList())
                + "\n";
        examples.add(utf8(text));
      }
      assertThat(examples).hasSizeGreaterThanOrEqualTo(6);
      return examples;
    }
  }
}
