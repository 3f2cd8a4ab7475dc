package io.sluice.core.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.flow.Flow;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.spi.TimerService;
import io.sluice.core.store.Storage;
import io.sluice.core.vm.queue.VmQueues;
import java.time.Clock;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What every flow of one application shares (the flows themselves too, for flow-refs); the storage
 * is opened on first use.
 */
record Services(
    Clock clock,
    TimerService timer,
    MeterRegistry registry,
    VmQueues vmQueues,
    CpuPool cpu,
    Supplier<Storage> storage,
    StoredValues storedValues,
    Map<String, Flow> flows) {}
