package io.sluice.core.router;

import static io.sluice.core.router.Routes.append;
import static io.sluice.core.router.Routes.failing;
import static io.sluice.core.router.Routes.lite;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.Backoff;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.flow.OnError;
import io.sluice.core.store.StorageConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The routers written with their Java builders run as their YAML counterparts do. */
class RoutersAreBuiltInJavaAsInYamlTest {

  @Test
  void aFlowOfBuiltRoutersRuns() throws Exception {
    AtomicInteger tries = new AtomicInteger();
    List<Object> groups = new CopyOnWriteArrayList<>();
    Flow orders =
        Flow.builder("orders")
            .processor(
                Foreach.builder("lines")
                    .collection("payload.lines")
                    .processors(
                        lite(
                            m ->
                                m.withVariable(
                                    "skus",
                                    (m.variable("skus") == null ? "" : m.variable("skus"))
                                        + String.valueOf(m.payload()))))
                    .build())
            .processor(
                UntilSuccessful.builder("again")
                    .maxRetries(3)
                    .backoff(Backoff.doubling(Duration.ofMillis(1), Duration.ofMillis(2)))
                    .processors(
                        lite(
                            m -> {
                              if (tries.incrementAndGet() < 2) {
                                throw new IllegalStateException("once");
                              }
                              return m;
                            }))
                    .build())
            .processor(
                TryScope.builder("guard")
                    .processors(failing(new IllegalStateException("boom")))
                    .onError(new OnError.Continue(List.of(), null, List.of(append(""))))
                    .build())
            .processor(
                ScatterGather.builder("fan")
                    .route("a", append("-a"))
                    .route("b", failing(new IllegalStateException("b down")))
                    .tolerateFailures("errors")
                    .build())
            .build();
    Flow gather =
        Flow.builder("gather")
            .processor(
                Aggregate.builder("pairs")
                    .correlation("vars.key")
                    .size("2")
                    .member("payload")
                    .processors(
                        lite(
                            m -> {
                              groups.add(m.payload());
                              return m;
                            }))
                    .build())
            .build();
    try (Application app =
        Application.builder().storage(StorageConfig.memory()).flow(orders).flow(gather).build()) {
      app.start();
      Message out =
          app.send("orders", Message.of(Map.of("lines", List.of("x", "y"))))
              .get(10, TimeUnit.SECONDS);
      assertThat(out.variable("skus")).isEqualTo("xy");
      assertThat(tries).hasValue(2);
      assertThat(((Map<?, ?>) out.payload()).keySet()).hasSize(1);
      assertThat(out.variable("errors")).isEqualTo(Map.of("b", "b down"));
      for (String part : List.of("p1", "p2")) {
        app.send("gather", Message.of(part).withVariable("key", "k")).get(10, TimeUnit.SECONDS);
      }
      await().atMost(Duration.ofSeconds(10)).until(() -> groups.size() == 1);
      assertThat(groups.getFirst()).isEqualTo(List.of("p1", "p2"));
    }
  }
}
