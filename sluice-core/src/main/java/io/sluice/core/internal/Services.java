package io.sluice.core.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.spi.TimerService;
import io.sluice.core.vm.VmQueues;
import java.time.Clock;

/** What every flow of one application shares. */
record Services(
    Clock clock, TimerService timer, MeterRegistry registry, VmQueues vmQueues, CpuPool cpu) {}
