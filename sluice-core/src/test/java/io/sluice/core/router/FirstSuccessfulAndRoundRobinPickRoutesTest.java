package io.sluice.core.router;

import static io.sluice.core.router.Routes.app;
import static io.sluice.core.router.Routes.append;
import static io.sluice.core.router.Routes.failing;
import static io.sluice.core.router.Routes.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.ProcessingStrategy;
import io.sluice.core.app.Application;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FirstSuccessfulAndRoundRobinPickRoutesTest {

  @Test
  void firstSuccessfulEndsWithTheFirstRouteThatSucceedsOnTheMessageAsItEntered() throws Exception {
    FirstSuccessful first =
        new FirstSuccessful(
            "fallback",
            List.of(
                List.of(append("-changed"), failing(new IllegalStateException("primary down"))),
                List.of(append("-secondary")),
                List.of(append("-never"))));
    try (Application app = app(ProcessingStrategy.defaultStrategy(), first)) {
      assertThat(send(app, "x").payload()).isEqualTo("x-secondary");
    }
  }

  @Test
  void firstSuccessfulFailsWithEveryRoutesErrorWhenAllFail() {
    FirstSuccessful first =
        new FirstSuccessful(
            "fallback",
            List.of(
                List.of(failing(new IllegalStateException("a down"))),
                List.of(failing(new IllegalStateException("b down")))));
    try (Application app = app(ProcessingStrategy.defaultStrategy(), first)) {
      assertThatThrownBy(() -> send(app, "x"))
          .cause()
          .isInstanceOf(CompositeRoutingException.class)
          .hasMessage(
              "first-successful 'fallback': 2 routes failed; route 1: a down; route 2: b down");
    }
  }

  @Test
  void roundRobinTakesEachRouteInTurn() throws Exception {
    RoundRobin turns =
        new RoundRobin(
            "turns", List.of(List.of(append("1")), List.of(append("2")), List.of(append("3"))));
    try (Application app = app(ProcessingStrategy.defaultStrategy(), turns)) {
      List<Object> got = new ArrayList<>();
      for (int i = 0; i < 7; i++) {
        got.add(send(app, "").payload());
      }
      assertThat(got).containsExactly("1", "2", "3", "1", "2", "3", "1");
    }
  }

  @Test
  void roundRobinKeepsItsTurnsEvenPastTheLargestInt() throws Exception {
    RoundRobin turns =
        new RoundRobin(
            "turns",
            List.of(List.of(append("1")), List.of(append("2")), List.of(append("3"))),
            Integer.MAX_VALUE - 1L);
    try (Application app = app(ProcessingStrategy.defaultStrategy(), turns)) {
      List<Object> got = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        got.add(send(app, "").payload());
      }
      // (2^31 - 2) % 3 == 0: the first route, then on in turn across the int's limit.
      assertThat(got).containsExactly("1", "2", "3", "1", "2", "3");
    }
  }
}
