package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * picocli starts a new line at every element of a description, and wraps each at the terminal's
 * width. So an element that stops mid-sentence prints as a line cut short, the sentence going on
 * below ("on the store of" / "sluice.store; it stops first"): every element must end a sentence (or
 * a lead-in ending with a colon), and wrapping is left to picocli.
 */
class HelpTextsBreakOnlyBetweenSentencesTest {

  @Test
  void everyLineOfEveryHelpTextEndsASentence() {
    List<String> cut = new ArrayList<>();
    visit(CommandTree.of(), cut);
    assertThat(cut).as("description lines that stop mid-sentence").isEmpty();
  }

  @Test
  void aLongHelpTextIsWrappedByPicocliNotByItsSource() {
    CliRun run = CliRun.of("run", "--help");
    assertThat(run.exitCode()).isZero();
    // the sentence that was cut after "on the store of" in the source
    assertThat(run.out().replaceAll("\\s+", " "))
        .contains("a job executor node runs too, on the store of sluice.store; it stops first");
    for (String line : run.out().lines().toList()) {
      assertThat(line.length()).as(line).isLessThanOrEqualTo(80);
    }
  }

  private static void visit(CommandLine command, List<String> cut) {
    CommandSpec spec = command.getCommandSpec();
    String name = spec.qualifiedName();
    check(name + " header", spec.usageMessage().header(), cut);
    check(name + " description", spec.usageMessage().description(), cut);
    for (ArgSpec arg : spec.args()) {
      String label =
          arg instanceof CommandLine.Model.OptionSpec option
              ? option.longestName()
              : arg.paramLabel();
      check(name + " " + label, arg.description(), cut);
    }
    command.getSubcommands().values().forEach(sub -> visit(sub, cut));
  }

  private static void check(String where, String[] lines, List<String> cut) {
    for (String line : lines) {
      String text = line.replace("%n", "").strip();
      if (!text.isEmpty() && !text.matches("(?s).*[.:!?)]$")) {
        cut.add(where + ": \"" + text + "\"");
      }
    }
  }
}
