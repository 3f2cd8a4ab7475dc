package io.sluice.jobs;

import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.logging.LogContext;
import io.sluice.core.store.Require;
import java.util.Map;
import java.util.concurrent.ExecutionException;

/**
 * Runs the jobs of one type: returning completes the job, throwing fails it (retried after a
 * backoff, an incident once no retry is left). Runs on a virtual thread of the executor; an
 * interrupt means the executor is stopping and the job is handed back.
 */
@FunctionalInterface
public interface JobHandler {

  /** Runs {@code job}. */
  void handle(JobContext job) throws Exception;

  /** The message attribute that carries the {@link JobContext} into a flow handler's flow. */
  String JOB_ATTRIBUTE = "job";

  /**
   * A handler that sends each job's payload, as a message, into the flow {@code flow} of {@code
   * application} and waits for it: the job completes when the flow does, and fails with the flow's
   * error. The message's attribute {@value #JOB_ATTRIBUTE} is the job's {@link JobContext}, so a
   * processor can ask {@link JobContext#holdsJob()} before a side effect, and its attribute {@code
   * jobId} the job's id (as a text: what the log's MDC shows, see {@link LogContext}).
   */
  static JobHandler flow(Application application, String flow) {
    Require.nonNull(application, "application");
    Require.nonBlank(flow, "flow");
    return job -> {
      try {
        application
            .send(
                flow,
                Message.of(
                    job.payload(),
                    Map.of(JOB_ATTRIBUTE, job, LogContext.JOB_ID, Long.toString(job.id()))))
            .get();
      } catch (ExecutionException e) {
        if (e.getCause() instanceof Exception cause) {
          throw cause;
        }
        throw e;
      }
    };
  }
}
