package io.sluice.config;

import io.sluice.jobs.JobContext;
import io.sluice.jobs.JobHandler;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/** A job handler class for the tests: keeps each payload it ran. */
public class RecordingJobHandler implements JobHandler {

  /** The payloads run, in order, by every instance. */
  static final BlockingQueue<Object> RAN = new LinkedBlockingQueue<>();

  @Override
  public void handle(JobContext job) {
    RAN.add(job.payload());
  }
}
