package io.sluice.cli;

import io.sluice.core.Message;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * The demo's pricing component: reads an order file's CSV lines (item, quantity, unit price),
 * appends each line's total and a grand total. CPU-intensive, so {@code auto} runs it on the shared
 * CPU pool.
 */
public final class DemoPricing implements Processor {

  @Override
  public Message process(Message message) {
    String text =
        message.payload() instanceof byte[] bytes
            ? new String(bytes, StandardCharsets.UTF_8)
            : String.valueOf(message.payload());
    StringBuilder out = new StringBuilder("item,quantity,unitPrice,total\n");
    BigDecimal grand = BigDecimal.ZERO;
    for (String line : text.split("\n")) {
      String[] cells = line.split(",");
      if (cells.length != 3 || cells[0].equals("item")) {
        continue;
      }
      BigDecimal total = new BigDecimal(cells[1].trim()).multiply(new BigDecimal(cells[2].trim()));
      grand = grand.add(total);
      out.append(line.trim()).append(',').append(total.toPlainString()).append('\n');
    }
    out.append("TOTAL,,,").append(grand.toPlainString()).append('\n');
    return message.withPayload(out.toString()).withVariable("total", grand);
  }

  @Override
  public ProcessingType processingType() {
    return ProcessingType.CPU_INTENSIVE;
  }

  @Override
  public String name() {
    return "demo-pricing";
  }
}
