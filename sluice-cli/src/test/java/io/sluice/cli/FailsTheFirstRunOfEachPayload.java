package io.sluice.cli;

import io.sluice.core.Message;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test component that fails the first message of each payload it sees in this process, and passes
 * the next, writing {@code ran-PAYLOAD} in the working directory: a job handled by it with no retry
 * becomes an incident, and runs once retried.
 */
public final class FailsTheFirstRunOfEachPayload implements Processor {

  /**
   * A configuration on the embedded store under {@code data} whose jobs of type {@code send-order}
   * run through the flow {@code send-order} of this component, retried after 1 s; more flows may be
   * appended as items of its {@code flows} list.
   */
  static final String SEND_ORDER_JOBS =
      """
      sluice:
        store: { dataDir: data }
        jobs:
          retryBackoff: 1s
          handlers:
            send-order: { flow: send-order }
      flows:
        - name: send-order
          processors:
            - component: { class: io.sluice.cli.FailsTheFirstRunOfEachPayload }
      """;

  private static final Set<Object> SEEN = ConcurrentHashMap.newKeySet();

  @Override
  public Message process(Message message) throws IOException {
    if (SEEN.add(message.payload())) {
      throw new IllegalStateException(
          "the first run of " + message.payload() + " fails on purpose: <b>not markup</b>");
    }
    Files.writeString(Path.of("ran-" + message.payload()), String.valueOf(message.payload()));
    return message;
  }

  @Override
  public ProcessingType processingType() {
    return ProcessingType.BLOCKING_IO;
  }
}
