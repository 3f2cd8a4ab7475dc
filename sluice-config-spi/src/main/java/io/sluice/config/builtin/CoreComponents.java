package io.sluice.config.builtin;

import io.sluice.config.spi.ComponentProvider;
import io.sluice.config.spi.ConfigComponent;
import io.sluice.core.file.FileSourceConfig;
import io.sluice.core.processor.ObjectStoreProcessor.Operation;
import io.sluice.core.router.Aggregate;
import io.sluice.core.router.Foreach;
import io.sluice.core.router.ParallelForeach;
import io.sluice.core.router.ScatterGather;
import io.sluice.core.router.UntilSuccessful;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.vm.VmPersistence;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The core's own components: the file, scheduler and VM sources, and the processors and scopes of
 * the core (logger, set-payload, set-variable, expression, component, async, vm-publish,
 * vm-request, file-write, the object store processors), its routers and scopes (choice, foreach,
 * parallel-foreach, scatter-gather, first-successful, round-robin, until-successful, split,
 * aggregate, try, flow-ref) and the store type memory. They live beside the SPI rather than in the
 * core, which reads no configuration tree and does without Jackson.
 */
public final class CoreComponents implements ComponentProvider {

  @Override
  public List<ConfigComponent<?>> components() {
    return List.of(
        new BuiltinSource("file", CoreSources::file, fileDefaults()),
        new BuiltinSource("scheduler", CoreSources::scheduler, Map.of()),
        new BuiltinSource("vm-listener", CoreSources::vmListener, vmListenerDefaults()),
        new BuiltinProcessor("logger", CoreProcessors::logger),
        new BuiltinProcessor("set-payload", CoreProcessors::setPayload),
        new BuiltinProcessor("set-variable", CoreProcessors::setVariable),
        new BuiltinProcessor("expression", CoreProcessors::expression),
        new BuiltinProcessor("component", CoreProcessors::component),
        new BuiltinProcessor("async", CoreProcessors::async),
        new BuiltinProcessor("choice", CoreRouters::choice),
        new BuiltinProcessor("foreach", CoreRouters::foreach, foreachDefaults()),
        new BuiltinProcessor(
            "parallel-foreach",
            CoreRouters::parallelForeach,
            Map.of("/properties/maxConcurrency", ParallelForeach.DEFAULT_MAX_CONCURRENCY)),
        new BuiltinProcessor(
            "scatter-gather",
            CoreRouters::scatterGather,
            Map.of(
                "/properties/errorsVariable",
                ScatterGather.DEFAULT_ERRORS_VARIABLE,
                "/properties/tolerateFailures",
                ScatterGather.DEFAULT_TOLERATE_FAILURES)),
        new BuiltinProcessor("first-successful", CoreRouters::firstSuccessful),
        new BuiltinProcessor("round-robin", CoreRouters::roundRobin),
        new BuiltinProcessor(
            "until-successful", CoreRouters::untilSuccessful, untilSuccessfulDefaults()),
        new BuiltinProcessor("split", CoreRouters::split),
        new BuiltinProcessor("aggregate", CoreRouters::aggregate, aggregateDefaults()),
        new BuiltinProcessor("try", CoreRouters::tryScope),
        new BuiltinProcessor("flow-ref", CoreRouters::flowRef),
        new BuiltinProcessor(
            "vm-publish",
            (node, context) -> CoreProcessors.vmPublish(node, context, false),
            Map.of("/$defs/vmPublish/properties/timeout", CoreProcessors.DEFAULT_VM_TIMEOUT)),
        new BuiltinProcessor(
            "vm-request", (node, context) -> CoreProcessors.vmPublish(node, context, true)),
        new BuiltinProcessor("file-write", CoreProcessors::fileWrite),
        new BuiltinProcessor(
            "store-put",
            (node, context) -> CoreProcessors.objectStore(node, context, Operation.PUT),
            Map.of("/properties/maxEntries", ObjectStoreOptions.DEFAULTS.maxEntries())),
        new BuiltinProcessor(
            "store-get",
            (node, context) -> CoreProcessors.objectStore(node, context, Operation.GET)),
        new BuiltinProcessor(
            "store-remove",
            (node, context) -> CoreProcessors.objectStore(node, context, Operation.REMOVE)),
        new MemoryStore());
  }

  private static Map<String, Object> foreachDefaults() {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("/properties/batchSize", Foreach.DEFAULT_BATCH_SIZE);
    d.put("/properties/counterVariable", Foreach.DEFAULT_COUNTER_VARIABLE);
    d.put("/properties/rootMessageVariable", Foreach.DEFAULT_ROOT_VARIABLE);
    return d;
  }

  private static Map<String, Object> aggregateDefaults() {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("/properties/correlation", Aggregate.DEFAULT_CORRELATION);
    d.put("/properties/size", Aggregate.DEFAULT_SIZE);
    d.put("/properties/member", Aggregate.DEFAULT_MEMBER);
    return d;
  }

  private static Map<String, Object> untilSuccessfulDefaults() {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("/properties/maxRetries", UntilSuccessful.DEFAULT_MAX_RETRIES);
    d.put("/properties/delay", UntilSuccessful.DEFAULT_BACKOFF.initial());
    d.put("/properties/maxDelay", UntilSuccessful.DEFAULT_BACKOFF.cap());
    d.put("/properties/factor", UntilSuccessful.DEFAULT_BACKOFF.factor());
    return d;
  }

  private static Map<String, Object> fileDefaults() {
    FileSourceConfig file = FileSourceConfig.builder(Path.of("defaults")).build();
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("/properties/pattern", file.pattern());
    d.put("/properties/pollingFrequency", file.pollingFrequency());
    d.put("/properties/minAge", file.minAge());
    d.put("/properties/afterRead", file.afterRead());
    d.put("/properties/maxConcurrentFiles", file.maxConcurrentFiles());
    d.put("/properties/streaming", file.streaming());
    return d;
  }

  private static Map<String, Object> vmListenerDefaults() {
    VmPersistence vm = VmPersistence.DEFAULTS;
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("/properties/lockTimeout", vm.queue().lockTimeout());
    d.put("/properties/maxDeliveries", vm.queue().maxDeliveries());
    d.put("/properties/redeliveryDelay", vm.redeliveryDelay());
    return d;
  }
}
