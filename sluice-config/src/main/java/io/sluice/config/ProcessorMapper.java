package io.sluice.config;

import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProblemCollector;
import io.sluice.config.spi.ProcessorComponent;
import io.sluice.core.expression.Expression;
import io.sluice.core.flow.OnError;
import io.sluice.core.spi.Processor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Maps processor lists ({@code processors}, {@code sinks}, scopes) and error handlers; each
 * processor by the component registered under its key.
 */
final class ProcessorMapper {

  private final ComponentRegistry registry;
  private final MappingContext context;
  private final ProblemCollector problems;

  ProcessorMapper(ComponentRegistry registry, MappingContext context) {
    this.registry = registry;
    this.context = context;
    this.problems = context.problems();
  }

  /** The processors of list {@code key}; the broken ones are recorded and left out. */
  List<Processor> processors(ConfigNode parent, String key) {
    List<Processor> processors = new ArrayList<>();
    for (ConfigNode item : parent.items(key)) {
      Map.Entry<String, ConfigNode> kind = item.single();
      Processor processor = kind == null ? null : processor(kind.getKey(), kind.getValue());
      if (processor != null) {
        processors.add(processor);
      }
    }
    return processors;
  }

  List<OnError> errorHandler(ConfigNode parent, String key) {
    List<OnError> branches = new ArrayList<>();
    for (ConfigNode item : parent.items(key)) {
      Map.Entry<String, ConfigNode> kind = item.single();
      if (kind == null) {
        continue;
      }
      ConfigNode branch = kind.getValue();
      List<String> types = branch.texts("types");
      Expression when =
          branch.has("when")
              ? problems.attempt(
                  "",
                  () -> Expression.compile(branch.get("when").path(), branch.text("when", null)))
              : null;
      List<Processor> processors = processors(branch, "processors");
      switch (kind.getKey()) {
        case "onErrorContinue" -> branches.add(new OnError.Continue(types, when, processors));
        case "onErrorPropagate" -> branches.add(new OnError.Propagate(types, when, processors));
        default ->
            problems.add(
                branch.path(),
                kind.getKey(),
                "is not an error branch; use onErrorContinue or onErrorPropagate");
      }
    }
    return branches;
  }

  private Processor processor(String kind, ConfigNode node) {
    ProcessorComponent component = registry.processors().get(kind);
    if (component == null) {
      problems.add(node.path(), kind, "is not a known processor");
      return null;
    }
    return component.map(node, context);
  }

  /** The processor {@code node} describes as the component {@code kind}, inside another. */
  Processor embedded(String kind, ConfigNode node) {
    ProcessorComponent component = registry.processors().get(kind);
    if (component == null) {
      problems.add(
          node.path(),
          null,
          "needs the '" + kind + "' processor, which no module on the class path brings");
      return null;
    }
    return component.map(node, context);
  }
}
