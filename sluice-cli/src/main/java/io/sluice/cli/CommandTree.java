package io.sluice.cli;

import java.util.List;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * The commands of {@code sluice} and the commands they hold, in the order help lists them. Built
 * whole for help and tests; for a command line that names a command, only its branch: picocli
 * builds the model of each command it is given by reflection, which for all seventeen took about a
 * second of a short command such as {@code sluice jobs create} on a loaded 2-core machine.
 */
final class CommandTree {

  /** A command, its name as its {@code @Command} gives it, and the commands it holds. */
  private record Node(String name, Supplier<Object> command, List<Node> children) {}

  private static Node leaf(String name, Supplier<Object> command) {
    return new Node(name, command, List.of());
  }

  private static final List<Node> TOP =
      List.of(
          leaf("run", RunCommand::new),
          leaf("validate", ValidateCommand::new),
          new Node(
              "jobs",
              JobsCommand::new,
              List.of(
                  leaf("list", JobsListCommand::new),
                  leaf("show", JobsShowCommand::new),
                  leaf("incidents", JobsIncidentsCommand::new),
                  leaf("retry", JobsRetryCommand::new),
                  leaf("stats", JobsStatsCommand::new),
                  leaf("history", JobsHistoryCommand::new),
                  leaf("create", JobsCreateCommand::new))),
          new Node(
              "batch",
              BatchCommand::new,
              List.of(
                  leaf("run", BatchRunCommand::new),
                  leaf("list", BatchListCommand::new),
                  leaf("failures", BatchFailuresCommand::new),
                  leaf("resume", BatchResumeCommand::new),
                  leaf("stop", BatchStopCommand::new))),
          leaf("demo", DemoCommand::new),
          leaf("schema", SchemaCommand::new),
          leaf("completion", CompletionCommand::new),
          leaf("help", CommandLine.HelpCommand::new));

  private CommandTree() {}

  /**
   * The {@code sluice} command with the commands {@code args} names (every command, at each level,
   * when they name none of that level's, as {@code --help} or a misspelt name does, so help and
   * suggestions see them all).
   */
  static CommandLine of(String... args) {
    CommandLine sluice = new CommandLine(new SluiceCommand());
    add(sluice, TOP, args, 0);
    return sluice;
  }

  private static void add(CommandLine parent, List<Node> nodes, String[] args, int level) {
    String named = args.length > level ? args[level] : null;
    boolean one = nodes.stream().anyMatch(n -> n.name().equals(named)) && !"help".equals(named);
    for (Node node : nodes) {
      if (one && !node.name().equals(named)) {
        continue;
      }
      CommandLine command = new CommandLine(node.command().get());
      add(command, node.children(), one ? args : new String[0], level + 1);
      parent.addSubcommand(node.name(), command);
    }
  }
}
