package io.sluice.batch.config;

import io.sluice.batch.BatchEngine;
import io.sluice.batch.BatchJob;
import io.sluice.batch.BatchLauncher;
import java.util.List;
import java.util.Optional;

/**
 * The {@code batch:} section of a configuration: its batch jobs, in file order, each built and
 * validated. They run on the application's storage ({@code sluice.store:}) through {@link
 * BatchEngine}, as {@code sluice batch run} does, or from a flow's {@code batch-execute} through
 * the {@link #launcher()}.
 */
public final class BatchConfig {

  private final List<BatchJob> jobs;
  private final BatchLauncher launcher;

  BatchConfig(List<BatchJob> jobs, BatchLauncher launcher) {
    this.jobs = List.copyOf(jobs);
    this.launcher = launcher;
  }

  /**
   * What the file's {@code batch-execute} processors start the jobs through: bind it to the
   * application once built ({@code sluice run} does) and stop what it started before stopping the
   * application.
   */
  public BatchLauncher launcher() {
    return launcher;
  }

  /** The batch jobs, in file order; empty without the section. */
  public List<BatchJob> jobs() {
    return jobs;
  }

  /** The job named {@code name}, if there is one. */
  public Optional<BatchJob> job(String name) {
    return jobs.stream().filter(j -> j.name().equals(name)).findFirst();
  }

  /** The jobs' names, in file order. */
  public List<String> names() {
    return jobs.stream().map(BatchJob::name).toList();
  }
}
