package io.sluice.config;

import io.sluice.core.Application;
import io.sluice.core.Flow;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Maps a configuration tree that passed (or failed) the schema to an application builder. */
final class ApplicationMapper {

  private final FlowMapper flowMapper;
  private final ProblemCollector problems;

  ApplicationMapper(Path baseDirectory, ClassLoader componentLoader, ProblemCollector problems) {
    this.problems = problems;
    this.flowMapper =
        new FlowMapper(new ProcessorMapper(baseDirectory, componentLoader, problems), problems);
  }

  /** The builder; it is only valid when no problem was recorded. */
  Application.Builder map(ConfigNode root) {
    Application.Builder application = Application.builder();
    ConfigNode sluice = root.get("sluice");
    if (sluice.has("shutdownTimeout")) {
      application.shutdownTimeout(sluice.duration("shutdownTimeout", null));
    }
    if (sluice.has("vmQueueCapacity")) {
      application.vmQueueCapacity(sluice.integer("vmQueueCapacity", 1000));
    }
    Map<String, String> firstFlowPath = new HashMap<>();
    for (ConfigNode node : root.items("flows")) {
      String name = node.text("name", null);
      ConfigNode nameNode = node.get("name");
      String earlier = name == null ? null : firstFlowPath.putIfAbsent(name, nameNode.path());
      if (earlier != null) {
        problems.add(
            nameNode.path(),
            name,
            "must be unique; the flow at "
                + earlier
                + " ("
                + problems.locate(earlier)
                + ") has this name too");
      }
      Flow flow = flowMapper.flow(node);
      if (flow != null) {
        application.flow(flow);
      }
    }
    return application;
  }
}
