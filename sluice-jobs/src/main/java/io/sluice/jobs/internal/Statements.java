package io.sluice.jobs.internal;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/** Prepares a statement in the job store's transaction at hand: the writer's or a caller's. */
@FunctionalInterface
interface Statements {
  PreparedStatement get(String sql) throws SQLException;
}
