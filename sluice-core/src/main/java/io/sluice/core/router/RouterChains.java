package io.sluice.core.router;

import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.Processor;
import java.util.ArrayList;
import java.util.List;

/**
 * The processors of a router's chains, started with it (all, or, when one fails, those before it
 * stopped again) and stopped after it, in reverse order.
 */
final class RouterChains {

  private final List<List<Processor>> chains;
  private final List<Processor> started = new ArrayList<>();

  RouterChains(List<List<Processor>> chains) {
    this.chains = chains;
  }

  void start(FlowContext context) throws Exception {
    try {
      for (List<Processor> chain : chains) {
        for (Processor processor : chain) {
          processor.start(context);
          started.add(processor);
        }
      }
    } catch (Exception e) {
      stop();
      throw e;
    }
  }

  void stop() {
    for (int i = started.size() - 1; i >= 0; i--) {
      started.get(i).stop();
    }
    started.clear();
  }
}
