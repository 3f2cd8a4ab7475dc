package io.sluice.core.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.SluiceException;
import io.sluice.core.flow.Flow;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.Scope;
import io.sluice.core.spi.TimerService;
import io.sluice.core.store.Storage;
import io.sluice.core.vm.queue.VmQueues;
import java.time.Clock;

/** A flow context whose clock, timer, meters, VM queues and storage are the application's. */
abstract class ServicesContext implements FlowContext {

  final Services services;

  ServicesContext(Services services) {
    this.services = services;
  }

  @Override
  public Clock clock() {
    return services.clock();
  }

  @Override
  public TimerService timer() {
    return services.timer();
  }

  @Override
  public MeterRegistry meterRegistry() {
    return services.registry();
  }

  @Override
  public VmQueues vmQueues() {
    return services.vmQueues();
  }

  @Override
  public Storage storage() {
    return services.storage().get();
  }

  @Override
  public StoredValues storedValues() {
    return services.storedValues();
  }

  @Override
  public Scope flowReference(String name) {
    Flow target = services.flows().get(name);
    if (target == null) {
      throw new SluiceException(
          "flow-ref '" + name + "' names no flow; the flows are " + services.flows().keySet());
    }
    return new FlowReference(target);
  }
}
