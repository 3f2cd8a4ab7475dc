package io.sluice.core.router;

import static io.sluice.core.router.Routes.lite;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.expression.Expression;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.StorageConfig;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SplitAndAggregateRegroupThePartsTest {

  private final List<Message> groups = new CopyOnWriteArrayList<>();

  private Processor collect() {
    return lite(
        m -> {
          groups.add(m);
          return m;
        });
  }

  private Aggregate aggregate(Duration timeout) {
    return new Aggregate(
        "lines",
        Expression.compile("correlation", Aggregate.DEFAULT_CORRELATION),
        Expression.compile("size", Aggregate.DEFAULT_SIZE),
        Expression.compile("member", Aggregate.DEFAULT_MEMBER),
        timeout,
        false,
        null,
        List.of(collect()));
  }

  /** orders splits each order into lines, each sent through the flow line, which aggregates. */
  private Application app(Aggregate aggregate) {
    Processor upper = lite(m -> m.withPayload(m.payload().toString().toUpperCase()));
    Flow orders =
        Flow.builder("orders")
            .processor(new Split("lines", null, List.of(new FlowRef("line"))))
            .build();
    Flow line = Flow.builder("line").processor(upper).processor(aggregate).build();
    Application app =
        Application.builder().storage(StorageConfig.memory()).flow(orders).flow(line).build();
    app.start();
    return app;
  }

  @Test
  void thePartsOfEachMessageComeBackAsOneGroupInOrder() throws Exception {
    try (Application app = app(aggregate(null))) {
      Message first = Message.of(List.of("a", "b", "c"));
      Message out = app.send("orders", first).get(10, TimeUnit.SECONDS);
      app.send("orders", Message.of(List.of("x"))).get(10, TimeUnit.SECONDS);

      assertThat(out.payload())
          .as("the flow goes on with the original")
          .isEqualTo(List.of("a", "b", "c"));
      await().atMost(Duration.ofSeconds(10)).until(() -> groups.size() == 2);
      Message group =
          groups.stream()
              .filter(g -> g.variable("correlationId").equals(first.id()))
              .findFirst()
              .orElseThrow();
      assertThat(group.payload()).isEqualTo(List.of("A", "B", "C"));
      assertThat(group.variable("aggregateCompletion")).isEqualTo("size");
    }
  }

  @Test
  void aMemberDeliveredTwiceIsCountedOnce() throws Exception {
    Aggregate aggregate = aggregate(null);
    Flow gather = Flow.builder("gather").processor(aggregate).build();
    try (Application app =
        Application.builder().storage(StorageConfig.memory()).flow(gather).build()) {
      app.start();
      for (long sequence : new long[] {1, 2, 2, 1, 3}) {
        Message part =
            Message.of("part " + sequence)
                .withVariable("correlationId", "order-9")
                .withVariable("correlationSequence", sequence)
                .withVariable("correlationGroupSize", 3);
        app.send("gather", part).get(10, TimeUnit.SECONDS);
      }
      await().atMost(Duration.ofSeconds(10)).until(() -> groups.size() == 1);
      assertThat(groups.getFirst().payload()).isEqualTo(List.of("part 1", "part 2", "part 3"));
      assertThat(
              app.meterRegistry()
                  .get("sluice.router.duplicates")
                  .tags("router", "lines")
                  .counter()
                  .count())
          .isEqualTo(2);
    }
  }

  @Test
  void anIncompleteGroupIsHandedOverAtItsTimeout() throws Exception {
    try (Application app = app(aggregate(Duration.ofMillis(200)))) {
      Message part =
          Message.of("only")
              .withVariable("correlationId", "order-1")
              .withVariable("correlationSequence", 1L)
              .withVariable("correlationGroupSize", 5);
      app.send("line", part).get(10, TimeUnit.SECONDS);
      await().atMost(Duration.ofSeconds(10)).until(() -> groups.size() == 1);
      assertThat(groups.getFirst().payload()).isEqualTo(List.of("ONLY"));
      assertThat(groups.getFirst().variable("aggregateCompletion")).isEqualTo("timeout");
    }
  }

  @Test
  void aMessageWithNoSizeAndNoTimeoutIsRefusedSayingWhy() {
    try (Application app = app(aggregate(null))) {
      Message part = Message.of("x").withVariable("correlationId", "order-1");
      assertThatThrownBy(() -> app.send("line", part).get(10, TimeUnit.SECONDS))
          .cause()
          .hasMessageContaining("gives no group size")
          .hasMessageContaining("set size or timeout");
    }
  }

  @Test
  void aFailingExpressionNamesTheAggregateAndTheMessage() {
    Aggregate bad =
        Aggregate.builder("lines").correlation("payload.order.id.call()").processors().build();
    Flow gather = Flow.builder("gather").processor(bad).build();
    try (Application app =
        Application.builder().storage(StorageConfig.memory()).flow(gather).build()) {
      app.start();
      Message part = Message.of(java.util.Map.of("order", java.util.Map.of("id", 1)));
      assertThatThrownBy(() -> app.send("gather", part).get(10, TimeUnit.SECONDS))
          .cause()
          .isInstanceOf(RoutingException.class)
          .hasMessageContaining("aggregate 'lines' in flow 'gather'")
          .hasMessageContaining("message " + part.id());
    }
  }

  @Test
  void aPersistentUntilSuccessfulRefusesMaxRetriesAtTheLimitOfAnInt() {
    assertThatThrownBy(
            () ->
                UntilSuccessful.builder("again")
                    .maxRetries(Integer.MAX_VALUE)
                    .persistent(null)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxRetries must be from 0 to 2147483646");
  }
}
