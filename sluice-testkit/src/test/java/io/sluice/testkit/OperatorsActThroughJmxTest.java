package io.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.app.Jmx;
import io.sluice.core.flow.Flow;
import io.sluice.core.scheduler.SchedulerSource;
import io.sluice.core.store.StorageConfig;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Flows, queues and the CPU pool seen and acted on through a real JMX connection (RMI, TCP). */
class OperatorsActThroughJmxTest {

  @Test
  void aFlowIsStoppedAndStartedAndADeadLetterRequeuedOverJmx() throws Exception {
    AtomicInteger ticks = new AtomicInteger();
    DeadLetterFlows orders = new DeadLetterFlows();
    Flow ticking =
        Flow.builder("ticking")
            .source(SchedulerSource.fixedFrequency(Duration.ofMillis(20), Duration.ZERO))
            .processor(m -> m.withPayload(ticks.incrementAndGet()))
            .build();
    try (RemoteJmx jmx = RemoteJmx.connect();
        Application app =
            Application.builder()
                .storage(StorageConfig.builder().type("memory").build())
                .flow(ticking)
                .flow(orders.publish())
                .flow(orders.consume())
                .build()) {
      app.start();
      try (AutoCloseable beans = Jmx.register(app)) {
        Jmx.FlowMXBean flow = jmx.proxy(Jmx.name("Flow", "ticking"), Jmx.FlowMXBean.class);
        assertThat(flow.getStrategy()).isEqualTo("auto");
        await().atMost(Duration.ofSeconds(10)).until(() -> flow.getCompleted() >= 3);

        assertThat(flow.stop()).isTrue();
        assertThat(flow.stop()).as("stopped already").isFalse();
        assertThat(flow.isStopped()).isTrue();
        int atStop = ticks.get();
        await().atMost(Duration.ofSeconds(5)).until(() -> flow.getInFlight() == 0);
        long completedAtStop = flow.getCompleted();
        assertThat(ticks.get()).isLessThanOrEqualTo(atStop + 1);
        assertThat(flow.getCompleted()).isEqualTo(completedAtStop);
        assertThat(flow.start()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> flow.getCompleted() > completedAtStop);

        app.send("publish", Message.of("order 7")).get(5, TimeUnit.SECONDS);
        Jmx.QueueMXBean queue =
            jmx.proxy(Jmx.name("Queue", DeadLetterFlows.QUEUE), Jmx.QueueMXBean.class);
        assertThat(queue.getFlow()).isEqualTo("consume");
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.getDeadLetters() == 1);
        String dead = queue.deadLetters(10).getFirst();
        assertThat(dead).contains("order 7");
        long id = Long.parseLong(dead.substring(0, dead.indexOf(',')));

        orders.downstreamUp.set(true);
        assertThat(queue.requeueDeadLetter(id)).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> orders.handled.get() == 1);
        assertThat(queue.getDeadLetters()).isZero();
        assertThat(queue.requeueDeadLetter(id))
            .as("handled meanwhile: nothing to requeue")
            .isFalse();
        assertThat(queue.dropDeadLetter(id)).isFalse();

        Jmx.PoolMXBean pool = jmx.proxy(Jmx.name("Pool", "cpu"), Jmx.PoolMXBean.class);
        assertThat(pool.getLimit()).isPositive();
      }
      assertThat(
              ManagementFactory.getPlatformMBeanServer().isRegistered(Jmx.name("Flow", "ticking")))
          .as("unregistered when closed")
          .isFalse();
    }
  }
}
