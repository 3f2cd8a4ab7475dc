package io.sluice.cli;

import io.sluice.jobs.spi.JobInfo;
import io.sluice.jobs.spi.JobQuery;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code --limit} and {@code --after} options of the commands that list jobs a page at a time.
 */
final class JobPage {

  @Option(
      names = "--limit",
      defaultValue = "100",
      paramLabel = "N",
      description = "At most N jobs (default ${DEFAULT-VALUE}).")
  int limit;

  @Option(
      names = "--after",
      defaultValue = "0",
      paramLabel = "ID",
      description = "Only jobs whose id is above ID: the next page.")
  long after;

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  /** The query for this page of jobs in {@code state} (null: any) of {@code type} (null: any). */
  JobQuery query(JobQuery.State state, String type) {
    if (limit < 1) {
      throw new ParameterException(spec.commandLine(), "--limit must be at least 1, was " + limit);
    }
    if (after < 0) {
      throw new ParameterException(
          spec.commandLine(), "--after must not be negative, was " + after);
    }
    try {
      return new JobQuery(state, type, after, limit);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--type: " + e.getMessage());
    }
  }

  /**
   * The page as {@code --output json} shows it: {@code {"<what>": [...], "count": n, "nextAfter":
   * id}}, {@code nextAfter} (the {@code --after} of the next page) null when this page is not full.
   */
  void printJson(PrintWriter out, List<JobInfo> page, String what) {
    Map<String, Object> json = OutputOption.object();
    json.put(what, page.stream().map(JobText::json).toList());
    json.put("count", page.size());
    json.put("nextAfter", page.size() == limit ? page.getLast().id() : null);
    OutputOption.print(out, json);
  }

  /** Says how many were listed, and how to get the next page when this one is full. */
  void printFooter(PrintWriter out, List<JobInfo> page, String what) {
    out.printf("%d %s%n", page.size(), what);
    if (page.size() == limit) {
      long last = page.getLast().id();
      out.printf("more may follow: add --after %d for the next page%n", last);
    }
  }
}
