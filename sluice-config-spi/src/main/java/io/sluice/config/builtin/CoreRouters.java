package io.sluice.config.builtin;

import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProblemCollector;
import io.sluice.config.spi.TransactionalNames;
import io.sluice.core.Backoff;
import io.sluice.core.expression.Expression;
import io.sluice.core.router.Aggregate;
import io.sluice.core.router.Choice;
import io.sluice.core.router.FirstSuccessful;
import io.sluice.core.router.FlowRef;
import io.sluice.core.router.Foreach;
import io.sluice.core.router.ParallelForeach;
import io.sluice.core.router.PersistentUntilSuccessful;
import io.sluice.core.router.RoundRobin;
import io.sluice.core.router.ScatterGather;
import io.sluice.core.router.Split;
import io.sluice.core.router.TryScope;
import io.sluice.core.router.UntilSuccessful;
import io.sluice.core.spi.Processor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Maps the core's routers and scopes: choice, foreach, scatter-gather, try, flow-ref… */
final class CoreRouters {

  /** The longest a router's timeout or a retry's delay may be: a day. */
  static final Duration LONGEST = Duration.ofDays(1);

  private CoreRouters() {}

  static Processor choice(ConfigNode node, MappingContext context) {
    ProblemCollector problems = context.problems();
    List<Choice.When> whens = new ArrayList<>();
    boolean broken = false;
    for (ConfigNode when : node.items("when")) {
      Expression condition = expression(when, "expression", context);
      List<Processor> processors = context.processors(when, "processors");
      if (condition == null) {
        broken = true;
      } else {
        whens.add(new Choice.When(condition, processors));
      }
    }
    List<Processor> otherwise = context.processors(node, "otherwise");
    if (whens.isEmpty() && !broken) {
      problems.add(node.get("when").path(), null, "needs at least one when");
    }
    return broken || whens.isEmpty() ? null : new Choice(node.text("name", null), whens, otherwise);
  }

  static Processor foreach(ConfigNode node, MappingContext context) {
    Expression collection = node.has("collection") ? expression(node, "collection", context) : null;
    List<Processor> processors = context.processors(node, "processors");
    if (node.has("collection") && collection == null) {
      return null;
    }
    return context
        .problems()
        .attempt(
            node.get("batchSize").path(),
            () ->
                new Foreach(
                    node.text("name", null),
                    collection,
                    node.integer("batchSize", Foreach.DEFAULT_BATCH_SIZE),
                    node.text("counterVariable", Foreach.DEFAULT_COUNTER_VARIABLE),
                    node.text("rootMessageVariable", Foreach.DEFAULT_ROOT_VARIABLE),
                    processors));
  }

  static Processor parallelForeach(ConfigNode node, MappingContext context) {
    Expression collection = node.has("collection") ? expression(node, "collection", context) : null;
    List<Processor> processors = context.processors(node, "processors");
    Duration timeout = node.duration("timeout", null, LONGEST);
    if (node.has("collection") && collection == null) {
      return null;
    }
    return context
        .problems()
        .attempt(
            node.get("maxConcurrency").path(),
            () ->
                new ParallelForeach(
                    node.text("name", null),
                    collection,
                    node.integer("maxConcurrency", ParallelForeach.DEFAULT_MAX_CONCURRENCY),
                    timeout,
                    processors));
  }

  static Processor scatterGather(ConfigNode node, MappingContext context) {
    List<ScatterGather.Route> routes = new ArrayList<>();
    Map<String, String> names = new LinkedHashMap<>();
    for (ConfigNode route : node.items("routes")) {
      String name = route.text("name", null);
      if (name != null && names.putIfAbsent(name, route.path()) != null) {
        context
            .problems()
            .add(
                route.get("name").path(),
                name,
                "names another route too (" + names.get(name) + ")");
      }
      routes.add(new ScatterGather.Route(name, context.processors(route, "processors")));
    }
    Duration timeout = node.duration("timeout", null, LONGEST);
    if (routes.size() < 2) {
      context.problems().add(node.get("routes").path(), null, "needs at least two routes");
      return null;
    }
    return new ScatterGather(
        node.text("name", null),
        routes,
        timeout,
        node.bool("tolerateFailures", ScatterGather.DEFAULT_TOLERATE_FAILURES),
        node.text("errorsVariable", ScatterGather.DEFAULT_ERRORS_VARIABLE));
  }

  static Processor firstSuccessful(ConfigNode node, MappingContext context) {
    List<List<Processor>> routes = routes(node, context);
    return routes.isEmpty() ? null : new FirstSuccessful(node.text("name", null), routes);
  }

  static Processor roundRobin(ConfigNode node, MappingContext context) {
    List<List<Processor>> routes = routes(node, context);
    return routes.isEmpty() ? null : new RoundRobin(node.text("name", null), routes);
  }

  private static List<List<Processor>> routes(ConfigNode node, MappingContext context) {
    List<List<Processor>> routes = new ArrayList<>();
    for (ConfigNode route : node.items("routes")) {
      routes.add(context.processors(route, "processors"));
    }
    if (routes.isEmpty()) {
      context.problems().add(node.get("routes").path(), null, "needs at least one route");
    }
    return routes;
  }

  static Processor untilSuccessful(ConfigNode node, MappingContext context) {
    Backoff defaults = UntilSuccessful.DEFAULT_BACKOFF;
    Duration delay = node.duration("delay", defaults.initial(), LONGEST);
    Duration maxDelay = node.duration("maxDelay", defaults.cap(), LONGEST);
    double factor = node.decimal("factor", defaults.factor());
    List<Processor> processors = context.processors(node, "processors");
    Backoff backoff =
        context
            .problems()
            .attempt(
                node.get(node.has("maxDelay") ? "maxDelay" : "delay").path(),
                () -> new Backoff(delay, factor, maxDelay));
    if (backoff == null) {
      return null;
    }
    if (node.bool("persistent", false)) {
      String name = node.text("name", null);
      if (name == null) {
        context
            .problems()
            .add(
                node.get("name").path(),
                null,
                "is required with persistent: true (the scope's queue in the store is named after"
                    + " it, and must keep its name from one run to the next)");
        return null;
      }
      String serializer = context.serializerName(node);
      return context
          .problems()
          .attempt(
              node.get("maxRetries").path(),
              () ->
                  new PersistentUntilSuccessful(
                      name,
                      node.integer("maxRetries", UntilSuccessful.DEFAULT_MAX_RETRIES),
                      backoff,
                      node.texts("retryOn"),
                      processors,
                      serializer));
    }
    return context
        .problems()
        .attempt(
            node.get("maxRetries").path(),
            () ->
                new UntilSuccessful(
                    node.text("name", null),
                    node.integer("maxRetries", UntilSuccessful.DEFAULT_MAX_RETRIES),
                    backoff,
                    node.texts("retryOn"),
                    processors));
  }

  static Processor split(ConfigNode node, MappingContext context) {
    Expression collection = node.has("collection") ? expression(node, "collection", context) : null;
    List<Processor> processors = context.processors(node, "processors");
    return node.has("collection") && collection == null
        ? null
        : new Split(node.text("name", null), collection, processors);
  }

  static Processor aggregate(ConfigNode node, MappingContext context) {
    ProblemCollector problems = context.problems();
    Expression correlation =
        expression(node, "correlation", Aggregate.DEFAULT_CORRELATION, context);
    Expression size = expression(node, "size", Aggregate.DEFAULT_SIZE, context);
    Expression member = expression(node, "member", Aggregate.DEFAULT_MEMBER, context);
    Duration timeout = node.duration("timeout", null, LONGEST);
    boolean persistent = node.bool("persistent", false);
    String name = node.text("name", null);
    String serializer = context.serializerName(node);
    List<Processor> processors = context.processors(node, "processors");
    if (persistent && name == null) {
      problems.add(
          node.get("name").path(),
          null,
          "is required with persistent: true (the groups in the store are named after it, and"
              + " must keep its name from one run to the next)");
      return null;
    }
    if (correlation == null || size == null || member == null) {
      return null;
    }
    return problems.attempt(
        node.get("timeout").path(),
        () ->
            new Aggregate(
                name, correlation, size, member, timeout, persistent, serializer, processors));
  }

  private static Expression expression(
      ConfigNode node, String key, String defaultText, MappingContext context) {
    String text = node.text(key, defaultText);
    return context.problems().attempt("", () -> Expression.compile(node.get(key).path(), text));
  }

  static Processor tryScope(ConfigNode node, MappingContext context) {
    String transaction = node.text("transaction", null);
    TransactionalNames names = context.shared(TransactionalNames.class, TransactionalNames::new);
    if (transaction != null) {
      names.reference(node.get("transaction").path(), transaction);
    }
    return new TryScope(
        node.text("name", null),
        context.processors(node, "processors"),
        context.errorHandler(node, "errorHandler"),
        names.resources(),
        transaction);
  }

  static Processor flowRef(ConfigNode node, MappingContext context) {
    String target = node.node().isTextual() ? node.node().asText() : node.text("name", null);
    if (target == null || target.isBlank()) {
      context.problems().add(node.path(), null, "must name a flow");
      return null;
    }
    if (node.path().startsWith("batch[") || node.path().startsWith("batch.")) {
      // A batch job's steps run in an application of the job's own, which holds no flow of the
      // file: refused here rather than accepted by validate and failing at run.
      context
          .problems()
          .add(
              node.path(),
              target,
              "cannot reach a flow of the file from a batch job (its steps run apart from the"
                  + " flows); call it with vm-request to a flow with a vm-listener");
      return null;
    }
    if (!context.flowNames().contains(target)) {
      context
          .problems()
          .add(
              node.path(),
              target,
              "names no flow of this file; the flows are " + context.flowNames());
      return null;
    }
    return new FlowRef(target);
  }

  private static Expression expression(ConfigNode node, String key, MappingContext context) {
    String text = node.text(key, null);
    if (text == null) {
      context.problems().add(node.get(key).path(), null, "is required");
      return null;
    }
    return context.problems().attempt("", () -> Expression.compile(node.get(key).path(), text));
  }
}
