package io.sluice.cli;

import io.sluice.core.Message;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.Map;

/**
 * The batch demo's price step: turns a checked order's amount into euro cents at fixed rates and
 * keeps what the sink needs: the id and the amount.
 */
public final class DemoOrderPricing implements Processor {

  private static final Map<String, Long> PER_MILLE_OF_EURO =
      Map.of("EUR", 1000L, "USD", 920L, "GBP", 1170L);

  @Override
  public Message process(Message message) {
    @SuppressWarnings("unchecked")
    Map<String, Object> order = (Map<String, Object>) message.payload();
    long cents = (Long) order.get("cents");
    long euroCents = cents * PER_MILLE_OF_EURO.get((String) order.get("currency")) / 1000;
    return message.withPayload(euroCents);
  }

  @Override
  public ProcessingType processingType() {
    return ProcessingType.CPU_LITE;
  }

  @Override
  public String name() {
    return "demo-order-pricing";
  }
}
