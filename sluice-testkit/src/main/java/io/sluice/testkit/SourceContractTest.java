package io.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.spi.Source;
import io.sluice.testkit.RecordingSourceContext.Submission;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract every {@link Source} keeps, to extend once per implementation. The test plays the
 * flow through a {@link RecordingSourceContext}: it sees each submission and completes its future
 * as a flow would.
 *
 * <p>A subclass says how to build the source ({@link #newSource}), how to give it something that
 * becomes one message ({@link #provoke}), and which delivery promises it makes ({@link
 * #redeliversFailedMessages()}, {@link #keepsRefusedMessages()}); cases about a promise the source
 * does not make are skipped. Sources driven by the context's timer are driven by {@link
 * #letTimePass}; sources with threads of their own are simply awaited.
 */
public abstract class SourceContractTest {

  /** A scratch directory per test, given to {@link #newSource} and {@link #provoke}. */
  @TempDir protected Path workDir;

  /** The context the source runs in; a fresh one per test. */
  protected RecordingSourceContext context;

  /** The source under test, started before each test. */
  protected Source source;

  private final AtomicInteger provoked = new AtomicInteger();
  private int seen;

  /** A new, unstarted source that works under {@code workDir} (a directory to poll, say). */
  protected abstract Source newSource(Path workDir) throws Exception;

  /**
   * Gives the started source something it turns into exactly one message (a file to pick up, an
   * entry on its queue, a due time) carrying {@code content} if it carries anything, and returns
   * the test that recognises that message among the submissions.
   */
  protected abstract Predicate<Message> provoke(String content) throws Exception;

  /**
   * Whether the source promises that a message whose future failed is submitted again later. A file
   * source does (the file stays); a scheduler does not (the next firing is another message).
   */
  protected boolean redeliversFailedMessages() {
    return false;
  }

  /**
   * Whether the source promises that a message the flow refused with a {@link
   * io.sluice.core.FlowBusyException} is submitted again later, whether the refusal came at once or
   * after {@code submit} returned.
   */
  protected boolean keepsRefusedMessages() {
    return false;
  }

  /**
   * Lets the source's time pass, once per look at the submissions while the test waits. By default
   * advances the context's manual timer by one second; sources polling less often override it.
   * Sources with threads of their own need nothing more.
   */
  protected void letTimePass() {
    context.manualTimer().advance(Duration.ofSeconds(1));
  }

  /** The longest a source may take to submit a provoked message, or to return from stop(). */
  protected Duration patience() {
    return Duration.ofSeconds(5);
  }

  /**
   * How long the test watches for submissions that must not come. Timer-driven sources are watched
   * while their time passes; this bounds the real time given to threaded ones.
   */
  protected Duration quietPeriod() {
    return Duration.ofMillis(200);
  }

  /** Creates the context and the source, and starts it. */
  @BeforeEach
  final void startSource() throws Exception {
    context = new RecordingSourceContext();
    source = newSource(workDir);
    source.start(context);
  }

  /** Stops the source (a harmless extra stop when the test already did) and lets go of waiters. */
  @AfterEach
  final void stopSource() {
    context.onSubmit(null);
    if (source != null) {
      source.stop();
    }
  }

  /** What the source is given becomes one submission. */
  @Test
  public void aStartedSourceSubmitsWhatItIsGiven() throws Exception {
    Predicate<Message> given = provoke(nextContent());

    Submission submission = awaitNextSubmission(given);

    assertThat(submission.message()).isNotNull();
    assertThat(context.submissions()).filteredOn(s -> given.test(s.message())).hasSize(1);
  }

  /**
   * stop() returns within {@link #patience()}, and what the source is given afterwards is never
   * submitted.
   */
  @Test
  public void stopReturnsPromptlyAndNothingIsSubmittedAfterItReturns() throws Exception {
    awaitNextSubmission(provoke(nextContent())).succeed();

    assertTimeoutPreemptively(patience(), source::stop, "stop() did not return promptly");
    int submitted = context.submissions().size();
    provoke(nextContent());

    assertNothingMoreSubmittedThan(submitted);
  }

  /** stop() does not wait for the flow to finish a message, and leaves its future alone. */
  @Test
  public void stopReturnsPromptlyWhileAMessageIsStillInTheFlow() throws Exception {
    Submission open = awaitNextSubmission(provoke(nextContent()));

    assertTimeoutPreemptively(patience(), source::stop, "stop() waited for the flow");

    assertThat(open.isDone()).as("the flow's future, untouched by stop()").isFalse();
  }

  /** stop() returns while a submit() of the source blocks, as one does under WAIT backpressure. */
  @Test
  public void stopReturnsPromptlyWhileTheSourceIsBlockedInSubmit() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch entered = new CountDownLatch(1);
    context.onSubmit(
        submission -> {
          entered.countDown();
          awaitQuietly(release);
        });
    Predicate<Message> given = provoke(nextContent());
    AtomicBoolean driving = new AtomicBoolean(true);
    AtomicReference<Throwable> driverError = new AtomicReference<>();
    // Time passes on another thread: a timer-driven source submits on the thread that drives it.
    Thread driver =
        Thread.ofPlatform()
            .name("contract-time")
            .start(
                () -> {
                  try {
                    while (driving.get() && entered.getCount() > 0) {
                      letTimePass();
                      entered.await(10, TimeUnit.MILLISECONDS);
                    }
                  } catch (Throwable e) {
                    driverError.set(e);
                  }
                });
    try {
      assertThat(entered.await(patience().toMillis(), TimeUnit.MILLISECONDS))
          .as("the source submitted")
          .isTrue();

      assertTimeoutPreemptively(
          patience(),
          source::stop,
          "stop() waited for a submit() that blocks, as a flow under WAIT backpressure does");
    } finally {
      driving.set(false);
      release.countDown();
      driver.join(patience().toMillis());
    }
    assertThat(driverError.get()).isNull();
    assertThat(context.submissions()).anyMatch(s -> given.test(s.message()));
  }

  /** A message the flow failed on is submitted again later, when the source promises it. */
  @Test
  public void aMessageWhoseFutureFailedIsDeliveredAgainLater() throws Exception {
    assumeThat(redeliversFailedMessages()).as("the source promises redelivery").isTrue();
    Predicate<Message> given = provoke(nextContent());

    awaitNextSubmission(given).fail(new SluiceException("the flow failed, as the test asked"));

    assertThat(awaitNextSubmission(given).message()).isNotNull();
  }

  /**
   * A message refused after submit() returned (a stage inside the flow was full) is submitted
   * again.
   */
  @Test
  public void aMessageRefusedAfterSubmitReturnedIsNotLost() throws Exception {
    assumeThat(keepsRefusedMessages()).as("the source keeps refused messages").isTrue();
    Predicate<Message> given = provoke(nextContent());

    awaitNextSubmission(given).refuse();

    assertThat(awaitNextSubmission(given).message()).isNotNull();
  }

  /**
   * A message whose future is already refused when submit() returns (REJECT) is submitted again.
   */
  @Test
  public void aMessageRefusedAtOnceIsNotLost() throws Exception {
    assumeThat(keepsRefusedMessages()).as("the source keeps refused messages").isTrue();
    AtomicBoolean refused = new AtomicBoolean();
    context.onSubmit(
        submission -> {
          if (refused.compareAndSet(false, true)) {
            submission.refuse();
          }
        });
    Predicate<Message> given = provoke(nextContent());

    Submission first = awaitNextSubmission(given);
    assertThat(first.result())
        .as("the first submission, refused at once")
        .isCompletedExceptionally();

    assertThat(awaitNextSubmission(given).message()).isNotNull();
  }

  /** Stopping a stopped source does nothing and returns promptly. */
  @Test
  public void aSecondStopIsHarmless() {
    source.stop();

    assertTimeoutPreemptively(patience(), source::stop);
  }

  /** Every source has a name for logs and metrics. */
  @Test
  public void nameIsNotBlank() {
    assertThat(source.name()).isNotBlank();
  }

  /** A fresh content string for {@link #provoke}, unique within the test. */
  protected final String nextContent() {
    return "message-" + provoked.incrementAndGet();
  }

  /**
   * Waits, letting time pass, for the next submission {@code which} recognises among those this
   * method has not returned yet (a source with threads of its own may submit before the wait
   * begins); fails after {@link #patience()}.
   */
  protected final Submission awaitNextSubmission(Predicate<Message> which) {
    AtomicReference<Submission> found = new AtomicReference<>();
    await("a submission of the provoked message")
        .atMost(patience())
        .pollInSameThread()
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10))
        .until(
            () -> {
              List<Submission> all = context.submissions();
              for (int i = seen; i < all.size(); i++) {
                if (which.test(all.get(i).message())) {
                  found.set(all.get(i));
                  seen = i + 1;
                  return true;
                }
              }
              letTimePass();
              return false;
            });
    return found.get();
  }

  /** Watches for {@link #quietPeriod()}, letting time pass, that no submission comes. */
  protected final void assertNothingMoreSubmittedThan(int count) {
    await("no submission after stop()")
        .during(quietPeriod())
        .atMost(quietPeriod().plus(patience()))
        .pollInSameThread()
        .pollInterval(Duration.ofMillis(10))
        .until(
            () -> {
              letTimePass();
              return context.submissions().size() == count;
            });
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
