package io.sluice.http;

import static io.sluice.http.SlowService.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.sluice.core.ExhaustedAction;
import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThrottledException;
import io.sluice.core.app.Application;
import io.sluice.core.expression.Expression;
import io.sluice.core.flow.Flow;
import io.sluice.core.router.Choice;
import io.sluice.core.router.RoutingException;
import io.sluice.core.router.ScatterGather;
import io.sluice.core.spi.Processor;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Under {@code auto} a call of the requester, a scope that waits holding no thread, still holds a
 * permit of the flow's adaptive limit from its send to its answer, as a blocking call does: a busy
 * answer lowers the limit, the stage's meters count the calls, a call cut short gives its permit
 * back, and a message past the limit waits for a permit without a thread.
 */
class RequesterHoldsAPermitOfTheAdaptiveLimitTest {

  @RegisterExtension final SlowService server = new SlowService();

  private HttpRequestProcessor requester() {
    return server.requester(50);
  }

  /** An application whose flow {@code f} runs {@code processor} under {@code auto} with a limit. */
  private static Application app(int initialLimit, int maxLimit, Processor processor) {
    ProcessingStrategy.Auto auto =
        new ProcessingStrategy.Auto(
            10_000, ExhaustedAction.WAIT, Duration.ofSeconds(30), initialLimit, maxLimit);
    Application app =
        Application.builder()
            .flow(Flow.builder("f").strategy(auto).processor(processor).build())
            .build();
    app.start();
    return app;
  }

  private static double stage(Application app, String meter) {
    var search = app.meterRegistry().get(meter).tag("flow", "f").tag("stage", "auto");
    return meter.equals("sluice.stage.completed") || meter.equals("sluice.stage.throttled")
        ? search.functionCounter().count()
        : search.gauge().value();
  }

  /** The threads, virtual ones included, parked in the adaptive limit for a permit. */
  private static int threadsWaitingForAPermit() throws IOException {
    Path dump = Files.createTempDirectory("threads").resolve("dump.json");
    try {
      ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
          .dumpThreads(dump.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
      String threads = Files.readString(dump);
      String frame = "AdaptiveLimiter.acquire(";
      int count = 0;
      for (int at = threads.indexOf(frame); at >= 0; at = threads.indexOf(frame, at + 1)) {
        count++;
      }
      return count;
    } finally {
      Files.deleteIfExists(dump);
      Files.deleteIfExists(dump.getParent());
    }
  }

  @Test
  void aBusyAnswerLowersTheLimitAndCountsAsThrottled() throws Exception {
    try (Application app = app(8, 100, requester())) {
      assertThatThrownBy(() -> app.send("f", call("busy")).get(10, TimeUnit.SECONDS))
          .cause()
          .isInstanceOf(ThrottledException.class);
      assertThat(stage(app, "sluice.stage.limit")).as("the limit after a 429").isLessThan(8);
      assertThat(stage(app, "sluice.stage.throttled")).isEqualTo(1);
      assertThat(stage(app, "sluice.stage.completed")).isEqualTo(1);
      app.send("f", call("echo")).get(10, TimeUnit.SECONDS);
      assertThat(called(app, "4xx").count()).as("the 429, timed by host").isEqualTo(1);
      assertThat(called(app, "2xx").count()).isEqualTo(1);
      assertThat(called(app, "2xx").totalTime(TimeUnit.NANOSECONDS)).isPositive();
    }
  }

  private io.micrometer.core.instrument.Timer called(Application app, String outcome) {
    return app.meterRegistry()
        .get("sluice.http.client.requests")
        .tag("flow", "f")
        .tag("host", "127.0.0.1:" + server.port())
        .tag("method", "POST")
        .tag("outcome", outcome)
        .timer();
  }

  @Test
  void callsWaitingForTheirAnswerAreActiveAndCountedWhenAnswered() throws Exception {
    try (Application app = app(8, 100, requester())) {
      List<CompletableFuture<Message>> calls = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        calls.add(app.send("f", call("slow")));
      }
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> stage(app, "sluice.stage.active") == 3 && server.connections() == 3);
      assertThat(stage(app, "sluice.stage.completed")).isZero();
      server.answerTheSlowOnes();
      CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
      assertThat(stage(app, "sluice.stage.active")).isZero();
      assertThat(stage(app, "sluice.stage.completed")).isEqualTo(3);
      assertThat(stage(app, "sluice.stage.throttled")).isZero();
    }
  }

  @Test
  void callsCutByAScatterGatherTimeoutGiveTheirPermitsBack() throws Exception {
    int limit = 2;
    ScatterGather sg = SlowService.fan(requester());
    try (Application app = app(limit, limit, sg)) {
      List<CompletableFuture<Message>> cut = new ArrayList<>();
      for (int i = 0; i < limit; i++) {
        cut.add(app.send("f", call("slow")));
      }
      for (CompletableFuture<Message> message : cut) {
        assertThatThrownBy(() -> message.get(10, TimeUnit.SECONDS))
            .cause()
            .isInstanceOf(RoutingException.class)
            .hasMessageContaining("timed out after PT0.3S");
      }
      assertThat(stage(app, "sluice.stage.active")).as("permits held after the cuts").isZero();
      assertThat(stage(app, "sluice.stage.completed")).isEqualTo(limit);
      // Every permit came back: another call runs at once, long before the cut calls' answers.
      Message next = app.send("f", call("echo")).get(10, TimeUnit.SECONDS);
      assertThat(((Map<?, ?>) next.payload()).get("call")).isEqualTo("echo:echo");
      assertThat(stage(app, "sluice.stage.completed")).isEqualTo(limit + 1);
    }
  }

  @Test
  void aCallCutWhileItWaitsForAPermitLeavesTheQueue() throws Exception {
    Choice slowAlone =
        new Choice(
            "slow alone",
            List.of(
                new Choice.When(
                    Expression.compile("when", "vars.what == 'slow'"), List.of(requester()))),
            List.of(SlowService.fan(requester())));
    try (Application app = app(1, 1, slowAlone)) {
      CompletableFuture<Message> holder = app.send("f", call("slow"));
      await().atMost(Duration.ofSeconds(10)).until(() -> stage(app, "sluice.stage.active") == 1);
      CompletableFuture<Message> cut = app.send("f", call("echo"));
      assertThat(stage(app, "sluice.stage.queued")).isEqualTo(1);
      assertThatThrownBy(() -> cut.get(10, TimeUnit.SECONDS))
          .cause()
          .isInstanceOf(RoutingException.class)
          .hasMessageContaining("timed out after PT0.3S");
      assertThat(stage(app, "sluice.stage.queued")).as("still queued after its cut").isZero();
      server.answerTheSlowOnes();
      assertThat(holder.get(10, TimeUnit.SECONDS).payload()).isEqualTo("late");
      assertThat(stage(app, "sluice.stage.completed"))
          .as("the cut call never held a permit")
          .isEqualTo(1);
      Message next = app.send("f", call("echo")).get(10, TimeUnit.SECONDS);
      assertThat(((Map<?, ?>) next.payload()).get("call")).isEqualTo("echo:echo");
      assertThat(stage(app, "sluice.stage.active")).isZero();
    }
  }

  @Test
  void aMessagePastTheLimitWaitsForAPermitWithoutAThread() throws Exception {
    try (Application app = app(1, 1, requester())) {
      CompletableFuture<Message> holder = app.send("f", call("slow"));
      await().atMost(Duration.ofSeconds(10)).until(() -> stage(app, "sluice.stage.active") == 1);
      // Each send runs the message on this thread up to the call: had the wait for a permit held
      // a thread, it would have held this one, and the next send would never start.
      List<CompletableFuture<Message>> waiting = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        waiting.add(app.send("f", call("echo")));
      }
      assertThat(stage(app, "sluice.stage.queued"))
          .as("messages waiting for a permit")
          .isEqualTo(5);
      assertThat(stage(app, "sluice.stage.active")).isEqualTo(1);
      assertThat(waiting).noneMatch(CompletableFuture::isDone);
      assertThat(threadsWaitingForAPermit()).as("threads waiting for a permit").isZero();
      server.answerTheSlowOnes();
      assertThat(holder.get(10, TimeUnit.SECONDS).payload()).isEqualTo("late");
      for (CompletableFuture<Message> message : waiting) {
        assertThat(message.get(10, TimeUnit.SECONDS).payload()).isEqualTo("echo:echo");
      }
      assertThat(stage(app, "sluice.stage.completed")).isEqualTo(6);
      assertThat(stage(app, "sluice.stage.queued")).isZero();
    }
  }
}
