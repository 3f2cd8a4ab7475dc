package io.sluice.jobs.internal;

import io.sluice.jdbc.SchemaMigrations;
import java.util.List;

/**
 * The job tables' part of a JDBC storage's schema ({@code sluice_job}, its payloads and errors, the
 * node leases): applied by the storage's migration runner at open, found through {@code
 * META-INF/services}. Their versions keep the numbers they had when sluice-jdbc held every table.
 */
public final class JobSchema implements SchemaMigrations {

  /** Made by {@link java.util.ServiceLoader}. */
  public JobSchema() {}

  @Override
  public String folder() {
    return "io/sluice/jobs/migrations";
  }

  @Override
  public List<Migration> migrations() {
    return List.of(
        new Migration(3, "jobs"),
        new Migration(6, "exclusive_jobs"),
        new Migration(10, "job_history"));
  }
}
