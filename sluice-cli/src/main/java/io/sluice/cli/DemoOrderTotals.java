package io.sluice.cli;

import io.sluice.core.Message;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The batch demo's sink: counts the groups and orders its step hands over and adds up their euro
 * cents, for the demo to print. A demo's sink: it keeps its totals in memory, where a real one
 * would write them keyed on the instance and positions (a group may come twice after a crash).
 */
public final class DemoOrderTotals implements Processor {

  static final AtomicLong GROUPS = new AtomicLong();
  static final AtomicLong ORDERS = new AtomicLong();
  static final AtomicLong CENTS = new AtomicLong();

  /** Starts the totals again, before a demo. */
  static void reset() {
    GROUPS.set(0);
    ORDERS.set(0);
    CENTS.set(0);
  }

  @Override
  public Message process(Message message) {
    List<?> group = (List<?>) message.payload();
    long cents = 0;
    for (Object amount : group) {
      cents += (Long) amount;
    }
    GROUPS.incrementAndGet();
    ORDERS.addAndGet(group.size());
    CENTS.addAndGet(cents);
    return message;
  }

  @Override
  public ProcessingType processingType() {
    return ProcessingType.CPU_LITE;
  }

  @Override
  public String name() {
    return "demo-order-totals";
  }
}
