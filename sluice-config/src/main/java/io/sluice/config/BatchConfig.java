package io.sluice.config;

import io.sluice.batch.BatchJob;
import java.util.List;
import java.util.Optional;

/**
 * The {@code batch:} section of a configuration: its batch jobs, in file order, each built and
 * validated. They run on the application's storage ({@code sluice.store:}) through {@link
 * io.sluice.batch.BatchEngine}, as {@code sluice batch run} does; {@code sluice run} does not run
 * them.
 */
public final class BatchConfig {

  private final List<BatchJob> jobs;

  BatchConfig(List<BatchJob> jobs) {
    this.jobs = List.copyOf(jobs);
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
