package io.sluice.core.logging;

import io.sluice.core.Message;
import java.util.HashMap;
import java.util.Map;

/**
 * What the thread is working on, for a log line to say: while a flow handles a message, the thread
 * doing it (the caller's, a stage's, the CPU pool's or a virtual thread) knows the flow and the
 * message, and through the message's attributes the durable job ({@value #JOB_ID}) or batch
 * instance ({@value #BATCH_INSTANCE}) it belongs to; a job handler of code knows its job.
 *
 * <p>Knowing costs one thread-local write when a thread takes a message up and one when it lets it
 * go, whether or not anything is logged. The MDC is filled from it only when a line is logged, by
 * whatever the logging backend calls before making a line: the {@code sluice} command installs a
 * Logback turbo filter that does it ({@code io.sluice.cli.LogContextFilter}); an embedding
 * application can do the same with {@link #entries()}. Filling the MDC at every hop instead would
 * cost about ten map writes and a message id text per hop (not measured quiet; the thread-local way
 * measured within noise, docs/benchmarks.md).
 */
public final class LogContext {

  /** The flow handling the message. */
  public static final String FLOW = "flow";

  /** The message's id ({@link Message#id()}). */
  public static final String MESSAGE_ID = "messageId";

  /** The durable job the message is running, as attribute and MDC key. */
  public static final String JOB_ID = "jobId";

  /** The batch instance the record belongs to, as attribute and MDC key. */
  public static final String BATCH_INSTANCE = "batchInstance";

  /** Every key {@link #entries()} may give. */
  public static final java.util.List<String> KEYS =
      java.util.List.of(FLOW, MESSAGE_ID, JOB_ID, BATCH_INSTANCE);

  private static final ThreadLocal<Work> CURRENT = new ThreadLocal<>();

  private LogContext() {}

  /** What a thread works on: a flow's message, or a job run by code. */
  public interface Work {

    /** The flow handling the message, or null. */
    String flowName();

    /** The message being handled, or null. */
    Message currentMessage();

    /** The job's id when no message names it, or null. */
    default String jobId() {
      return null;
    }
  }

  /**
   * Marks that this thread now works on {@code work}; give what it returns to {@link #leave} when
   * the thread lets the work go (a message handled inside another on the same thread names itself,
   * then the outer one again).
   */
  public static Work enter(Work work) {
    Work before = CURRENT.get();
    CURRENT.set(work);
    return before;
  }

  /** Puts back what the thread worked on before {@link #enter}. */
  public static void leave(Work before) {
    CURRENT.set(before);
  }

  /** Marks that this thread now runs the job {@code id} by code; see {@link #enter}. */
  public static Work job(long id) {
    String text = Long.toString(id);
    return enter(
        new Work() {
          @Override
          public String flowName() {
            return null;
          }

          @Override
          public Message currentMessage() {
            return null;
          }

          @Override
          public String jobId() {
            return text;
          }
        });
  }

  /**
   * What a line logged now on this thread should carry in its MDC: some of {@link #KEYS}, none when
   * the thread works on nothing Sluice knows.
   */
  public static Map<String, String> entries() {
    Work work = CURRENT.get();
    if (work == null) {
      return Map.of();
    }
    Map<String, String> entries = new HashMap<>(8);
    if (work.flowName() != null) {
      entries.put(FLOW, work.flowName());
    }
    Message message = work.currentMessage();
    if (message != null) {
      entries.put(MESSAGE_ID, message.id());
      put(entries, JOB_ID, message.attribute(JOB_ID));
      put(entries, BATCH_INSTANCE, message.attribute(BATCH_INSTANCE));
    }
    put(entries, JOB_ID, work.jobId());
    return entries;
  }

  private static void put(Map<String, String> entries, String key, Object value) {
    if (value != null) {
      entries.putIfAbsent(key, value.toString());
    }
  }
}
