package io.sluice.core.router;

import io.micrometer.core.instrument.Counter;
import io.sluice.core.Message;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Step;
import io.sluice.core.spi.TimerService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * Runs routes beside each other for one message ({@code scatter-gather}, {@code parallel-foreach}):
 * at most {@code maxConcurrency} at once, the next started as one ends, every outcome kept in the
 * order the routes were given. The message's own execution waits for the whole without a thread. A
 * timeout cuts the routes still running (their threads interrupted, no further processor run) and
 * fails the whole with {@code ROUTING:TIMEOUT}.
 */
final class Fan {

  /** One route to run: its name in results and errors, its chain, the message it gets. */
  record Route(String name, List<Processor> chain, Message message) {}

  /** How one route ended: its result, or its error. */
  record Outcome(String route, Message result, Throwable error) {}

  private final String router;
  private final FlowContext context;
  private final Iterator<Route> routes;
  private final int maxConcurrency;
  private final Counter timeouts;
  private final ReentrantLock lock = new ReentrantLock();
  private final List<Outcome> outcomes = new ArrayList<>();
  private final List<String> names = new ArrayList<>();
  private final Map<Integer, FlowContext.Forked> live = new HashMap<>();
  private final CompletableFuture<Step> promise = new CompletableFuture<>();
  private Function<List<Outcome>, Step> finish;
  private TimerService.Cancellable timer;
  private int running;
  private boolean launching;
  private boolean ended;

  Fan(
      String router,
      FlowContext context,
      Iterator<Route> routes,
      int maxConcurrency,
      Counter timeouts) {
    this.router = router;
    this.context = context;
    this.routes = routes;
    this.maxConcurrency = maxConcurrency;
    this.timeouts = timeouts;
  }

  /**
   * Starts the routes; the step completes with what {@code finish} makes of every outcome, or fails
   * with the timeout or with {@code finish}'s error.
   */
  CompletableFuture<Step> start(Duration timeout, Function<List<Outcome>, Step> whenAllEnded) {
    this.finish = whenAllEnded;
    lock.lock();
    try {
      if (timeout != null) {
        timer = context.timer().schedule(timeout, () -> timedOut(timeout));
      }
      launch();
    } finally {
      lock.unlock();
    }
    return promise;
  }

  /** Starts routes while there is room; called with the lock held. */
  private void launch() {
    launching = true;
    try {
      while (!ended && running < maxConcurrency && routes.hasNext()) {
        Route route = routes.next();
        int index = outcomes.size();
        outcomes.add(null);
        names.add(route.name());
        running++;
        FlowContext.Forked forked = context.fork(route.chain(), route.message());
        live.put(index, forked);
        forked.result().whenComplete((result, error) -> ended(index, route.name(), result, error));
      }
    } catch (RuntimeException e) {
      // The routes' source failed (a streamed collection that could not be read on).
      fail(e);
      return;
    } finally {
      launching = false;
    }
    if (!ended && running == 0 && !routes.hasNext()) {
      complete();
    }
  }

  private void ended(int index, String route, Message result, Throwable error) {
    lock.lock();
    try {
      if (ended) {
        return;
      }
      live.remove(index);
      outcomes.set(index, new Outcome(route, result, unwrap(error)));
      running--;
      if (!launching) {
        launch();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Every route ended: the whole ends with what {@code finish} makes of them. Lock held. */
  private void complete() {
    ended = true;
    if (timer != null) {
      timer.cancel();
    }
    try {
      promise.complete(finish.apply(outcomes));
    } catch (RuntimeException e) {
      promise.completeExceptionally(e);
    }
  }

  private void fail(RuntimeException error) {
    ended = true;
    if (timer != null) {
      timer.cancel();
    }
    live.values().forEach(forked -> forked.cancel(error));
    live.clear();
    promise.completeExceptionally(error);
  }

  /**
   * Cuts the routes still running, for a message cancelled while it waits for them (a route of an
   * outer scatter-gather that timed out); nothing once the whole has ended. The whole fails with
   * {@code reason}.
   */
  void cancel(RuntimeException reason) {
    lock.lock();
    try {
      if (!ended) {
        fail(reason);
      }
    } finally {
      lock.unlock();
    }
  }

  private void timedOut(Duration timeout) {
    lock.lock();
    try {
      if (ended) {
        return;
      }
      List<String> unfinished = new ArrayList<>();
      for (int i = 0; i < outcomes.size(); i++) {
        if (outcomes.get(i) == null) {
          unfinished.add(names.get(i));
        }
      }
      timeouts.increment();
      fail(
          new RoutingException(
              "ROUTING:TIMEOUT",
              router
                  + " timed out after "
                  + timeout
                  + "; still running: "
                  + String.join(", ", unfinished)
                  + (routes.hasNext() ? " (and routes not started)" : ""),
              null));
    } finally {
      lock.unlock();
    }
  }

  private static Throwable unwrap(Throwable error) {
    return error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error;
  }
}
