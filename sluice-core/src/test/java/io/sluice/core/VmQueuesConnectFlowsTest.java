package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.Processor;
import io.sluice.core.vm.VmListenerSource;
import io.sluice.core.vm.VmPublishProcessor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class VmQueuesConnectFlowsTest {

  private final List<Object> received = new CopyOnWriteArrayList<>();

  private final Processor record = Received.into(received);

  private static Flow publisher(boolean requestReply) {
    return Flow.builder("out")
        .processor(new VmPublishProcessor("q", requestReply, Duration.ofSeconds(10)))
        .build();
  }

  private static Application start(Flow... flows) {
    Application.Builder builder = Application.builder();
    for (Flow flow : flows) {
      builder.flow(flow);
    }
    Application app = builder.build();
    app.start();
    return app;
  }

  @Test
  void aOneWayPublishReachesTheListeningFlowAndReturnsAtOnce() throws Exception {
    Gate gate = Gate.blocking();
    Flow listener =
        Flow.builder("in")
            .source(new VmListenerSource("q", 1))
            .processor(record)
            .processor(gate)
            .build();
    try (Application app = start(publisher(false), listener)) {
      Message out = app.send("out", Message.of("hello")).get(10, TimeUnit.SECONDS);
      assertThat(out.payload()).isEqualTo("hello");
      await().until(() -> received.contains("hello"));
      gate.open();
    }
  }

  @Test
  void aRequestReplyReturnsTheListeningFlowsResult() throws Exception {
    Flow listener =
        Flow.builder("in")
            .source(new VmListenerSource("q", 1))
            .processor(m -> m.withPayload("re: " + m.payload()).withVariable("theirs", true))
            .build();
    try (Application app = start(publisher(true), listener)) {
      Message out =
          app.send("out", Message.of("hello").withVariable("mine", 1)).get(10, TimeUnit.SECONDS);
      assertThat(out.payload()).isEqualTo("re: hello");
      assertThat(out.variables()).containsOnlyKeys("mine");
    }
  }

  @Test
  void aRequestReplyFailsWithTheListeningFlowsError() {
    Flow listener =
        Flow.builder("in")
            .source(new VmListenerSource("q", 1))
            .processor(
                m -> {
                  throw new IllegalStateException("no such order");
                })
            .build();
    try (Application app = start(publisher(true), listener)) {
      assertThatThrownBy(() -> app.send("out", Message.of("hello")).get(10, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("no such order");
    }
  }

  @Test
  void entriesTheFlowRefusesGoBackToTheQueueAndAreDeliveredLaterInOrder() throws Exception {
    Gate gate = Gate.blocking();
    Flow listener =
        Flow.builder("in")
            .source(new VmListenerSource("q", 1))
            .strategy(
                new ProcessingStrategy.Synchronous(Profiles.oneThread(0, ExhaustedAction.REJECT)))
            .processor(gate)
            .processor(record)
            .build();
    try (Application app = start(publisher(false), listener)) {
      // A message sent to the flow directly holds its one thread; the listener's are refused.
      app.send("in", Message.of("held"));
      await().until(() -> gate.holding() == 1);
      for (int i = 0; i < 5; i++) {
        app.send("out", Message.of(i)).get(10, TimeUnit.SECONDS);
      }
      await()
          .until(
              () ->
                  app.meterRegistry()
                          .get("sluice.flow.messages")
                          .tag("flow", "in")
                          .tag("outcome", "refused")
                          .counter()
                          .count()
                      >= 1);
      gate.open();
      await().until(() -> received.size() == 6);
      assertThat(received).containsExactly("held", 0, 1, 2, 3, 4);
    }
  }

  @Test
  void oneConsumerDeliversInTheOrderPublished() throws Exception {
    Flow listener =
        Flow.builder("in").source(new VmListenerSource("q", 1)).processor(record).build();
    try (Application app = start(publisher(false), listener)) {
      for (int i = 0; i < 300; i++) {
        app.send("out", Message.of(i)).get(10, TimeUnit.SECONDS);
      }
      await().until(() -> received.size() == 300);
      assertThat(received)
          .containsExactlyElementsOf(
              IntStream.range(0, 300).boxed().map(Object.class::cast).toList());
    }
  }
}
