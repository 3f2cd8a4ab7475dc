package io.sluice.batch.internal;

import io.sluice.jdbc.SchemaMigrations;
import java.util.List;

/**
 * The batch tables' part of a JDBC storage's schema (instances, blocks, their records): applied by
 * the storage's migration runner at open, found through {@code META-INF/services}. Their versions
 * keep the numbers they had when sluice-jdbc held every table; version 5 is shared with
 * sluice-jdbc, whose part of it is the reasons of dead letters.
 */
public final class BatchSchema implements SchemaMigrations {

  /** Made by {@link java.util.ServiceLoader}. */
  public BatchSchema() {}

  @Override
  public String folder() {
    return "io/sluice/batch/migrations";
  }

  @Override
  public List<Migration> migrations() {
    return List.of(
        new Migration(4, "batch"),
        new Migration(5, "unreadable_records"),
        new Migration(7, "batch_output"),
        new Migration(8, "batch_input_key"),
        new Migration(9, "batch_parameters"),
        new Migration(11, "batch_failures"),
        new Migration(12, "batch_nodes"),
        new Migration(13, "batch_remote_output"));
  }
}
