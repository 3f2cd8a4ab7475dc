package io.sluice.batch.internal;

import io.sluice.batch.BatchState;
import io.sluice.jdbc.JdbcAccess;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The rows of {@code sluice_batch_instance} as they are listed and asked to stop: what the process
 * running an instance reads through its storage, and what another process reads and writes through
 * a connection of its own ({@link SqliteGuest}).
 */
public final class InstanceTable {

  /** The statements the table needs: on the storage's writer and readers, or on one connection. */
  public interface Sql {
    /** The rows {@code sql} selects with {@code parameters}. */
    <T> List<T> query(String what, String sql, JdbcAccess.Row<T> row, Object... parameters);

    /** Runs the change {@code sql} with {@code parameters}; returns the rows it changed. */
    int update(String what, String sql, Object... parameters);
  }

  /** An instance as stored. */
  public record Instance(
      long id,
      String job,
      String definition,
      BatchState state,
      boolean inputDone,
      long inputPosition,
      long loaded,
      long failed,
      long processed,
      long successful,
      long createdAt,
      long updatedAt,
      String result,
      boolean stopRequested) {}

  private static final String COLUMNS =
      "SELECT id, job, definition, state, input_done, input_position, loaded, failed, processed,"
          + " successful, created_at, updated_at, result, stop_requested FROM sluice_batch_instance";

  private final Sql sql;

  /** The table, reached through {@code sql}. */
  public InstanceTable(Sql sql) {
    this.sql = sql;
  }

  /** The instance {@code id}, if there is one. */
  public Optional<Instance> find(long id) {
    return sql
        .query("find batch instance " + id, COLUMNS + " WHERE id = ?", this::instance, id)
        .stream()
        .findFirst();
  }

  /** The instance of {@code job} started with {@code key}, if there is one. */
  public Optional<Instance> find(String job, String key) {
    return sql
        .query(
            "find the instance of batch job '" + job + "' with key '" + key + "'",
            COLUMNS + " WHERE job = ? AND input_key = ?",
            this::instance,
            job,
            key)
        .stream()
        .findFirst();
  }

  /** Up to {@code max} instances, newest first; of {@code job} only unless it is null. */
  public List<Instance> list(String job, int max) {
    return job == null
        ? sql.query(
            "list batch instances",
            COLUMNS + " ORDER BY id DESC LIMIT ?",
            this::instance,
            (long) max)
        : sql.query(
            "list the instances of batch job '" + job + "'",
            COLUMNS + " WHERE job = ? ORDER BY id DESC LIMIT ?",
            this::instance,
            job,
            (long) max);
  }

  /**
   * Asks the process running instance {@code id} to stop it; false, changing nothing, when it is
   * not loading or running (it ended, or stopped already), or there is no such instance.
   */
  public boolean requestStop(long id, long now) {
    return sql.update(
            "ask batch instance " + id + " to stop",
            "UPDATE sluice_batch_instance SET stop_requested = TRUE, updated_at = ?"
                + " WHERE id = ? AND state IN (?, ?)",
            now,
            id,
            (long) BatchState.LOADING.ordinal(),
            (long) BatchState.RUNNING.ordinal())
        == 1;
  }

  /**
   * What each node did of instance {@code id} on a shared store ({@code sluice_batch_node}, V12),
   * by node; empty when one process ran it.
   */
  public List<io.sluice.batch.BatchNodeWork> nodes(long id) {
    return sql.query(
        "read the nodes of batch instance " + id,
        "SELECT node, processed, failed, blocks, updated_at FROM sluice_batch_node"
            + " WHERE instance_id = ? ORDER BY node",
        rs ->
            new io.sluice.batch.BatchNodeWork(
                rs.getString(1),
                rs.getLong(2),
                rs.getLong(3),
                rs.getLong(4),
                java.time.Instant.ofEpochMilli(rs.getLong(5))),
        id);
  }

  /** The stored parameters of instance {@code id}; null when it has none. */
  public byte[] parameters(long id) {
    List<byte[]> found =
        sql.query(
            "read the parameters of batch instance " + id,
            "SELECT parameters FROM sluice_batch_instance WHERE id = ?",
            rs -> rs.getBytes(1),
            id);
    return found.isEmpty() ? null : found.getFirst();
  }

  /** Whether someone asked instance {@code id} to stop since it was last resumed. */
  public boolean stopRequested(long id) {
    return stopRequested(id, false);
  }

  /**
   * Whether someone asked instance {@code id} to stop since it was last resumed, or, when {@code
   * orStopped}, it is stopped or failed: on a shared store the first node to stop clears the
   * request as it writes the state (or fails the instance: more records failed than it allows), and
   * the others stop on the state.
   */
  public boolean stopRequested(long id, boolean orStopped) {
    return sql.query(
            "look for a stop request of batch instance " + id,
            "SELECT stop_requested, state FROM sluice_batch_instance WHERE id = ?",
            rs ->
                rs.getBoolean(1)
                    || orStopped
                        && (rs.getInt(2) == BatchState.STOPPED.ordinal()
                            || rs.getInt(2) == BatchState.FAILED.ordinal()),
            id)
        .contains(true);
  }

  private Instance instance(ResultSet rs) throws SQLException {
    return new Instance(
        rs.getLong(1),
        rs.getString(2),
        rs.getString(3),
        BatchState.values()[rs.getInt(4)],
        rs.getBoolean(5),
        rs.getLong(6),
        rs.getLong(7),
        rs.getLong(8),
        rs.getLong(9),
        rs.getLong(10),
        rs.getLong(11),
        rs.getLong(12),
        rs.getString(13),
        rs.getBoolean(14));
  }
}
