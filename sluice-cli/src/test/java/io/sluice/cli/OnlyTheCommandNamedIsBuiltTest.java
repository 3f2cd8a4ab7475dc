package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The {@code sluice} command builds only the branch of commands a command line names (picocli
 * models each by reflection), and every command when it names none, as help does.
 */
class OnlyTheCommandNamedIsBuiltTest {

  @Test
  void everyCommandIsBuiltUnderItsOwnNameForHelp() {
    CommandLine whole = Main.commandLine();
    assertThat(whole.getSubcommands().keySet())
        .containsExactly(
            "run", "validate", "jobs", "batch", "demo", "schema", "completion", "help");
    assertThat(whole.getSubcommands().get("jobs").getSubcommands().keySet())
        .containsExactly("list", "show", "incidents", "retry", "stats", "history", "create");
    assertThat(whole.getSubcommands().get("batch").getSubcommands().keySet())
        .containsExactly("run", "list", "failures", "resume", "stop");
    // each under the name its @Command gives it, so the tree cannot rename one
    for (CommandLine top : whole.getSubcommands().values()) {
      assertThat(top.getCommandName()).isEqualTo(top.getCommandSpec().name());
      for (Map.Entry<String, CommandLine> sub : top.getSubcommands().entrySet()) {
        assertThat(sub.getKey())
            .isEqualTo(
                sub.getValue()
                    .getCommand()
                    .getClass()
                    .getAnnotation(CommandLine.Command.class)
                    .name());
      }
    }
  }

  @Test
  void aCommandLineThatNamesACommandBuildsItsBranchOnly() {
    CommandLine create = Main.commandLine(new String[] {"jobs", "create", "app.yaml"});
    assertThat(create.getSubcommands().keySet()).containsExactly("jobs");
    assertThat(create.getSubcommands().get("jobs").getSubcommands().keySet())
        .containsExactly("create");

    CommandLine jobsHelp = Main.commandLine(new String[] {"jobs", "--help"});
    assertThat(jobsHelp.getSubcommands().get("jobs").getSubcommands()).hasSize(7);
    assertThat(Main.commandLine(new String[] {"help", "jobs"}).getSubcommands()).hasSize(8);
    assertThat(Main.commandLine(new String[] {"jbos"}).getSubcommands()).hasSize(8);
  }
}
