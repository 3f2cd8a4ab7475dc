package io.sluice.jobs.internal;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** The claim statement as the store runs it, explained, over 20,000 jobs of two types. */
final class ClaimPlans {

  private ClaimPlans() {}

  /** Inserts jobs, some running, from the numbers {@code x} of the source appended. */
  static final String ROWS =
      "INSERT INTO sluice_job (type, priority, due_at, sort_key, state, retries_left, attempts,"
          + " created_at) SELECT CASE WHEN x % 10 = 0 THEN 'fax' ELSE 'email' END, x % 100,"
          + " 1000000 + x, 1000000 + x - (x % 100) * 1000, CASE WHEN x % 50 = 0 THEN 1 ELSE 0 END,"
          + " 3, 0, 0 FROM ";

  /**
   * The claim with its parameters written in: node 'a', epoch 1, 500 email jobs (enough that a plan
   * hashing the whole table would look cheaper to the planner than lookups by key).
   */
  static String claim(String type) {
    JobSql sql =
        JobSql.of(type, type.equals("postgresql") ? " FOR UPDATE SKIP LOCKED" : "", "", true);
    String statement = sql.claim(1);
    for (String value : new String[] {"'a'", "1", "1100000", "'email'", "'a'", "1", "500"}) {
      statement = statement.replaceFirst("\\?", value);
    }
    return statement;
  }

  /**
   * The choice of exclusive keys a claim makes first, with its parameters written in: now after
   * every job, 'email', a window of 8,000.
   */
  static String keysToClaim(String type) {
    boolean postgres = type.equals("postgresql");
    JobSql sql =
        JobSql.of(
            type,
            postgres ? " FOR UPDATE SKIP LOCKED" : "",
            postgres ? " = ANY(?::bigint[])" : " IN (SELECT value FROM json_each(?))",
            true);
    String statement = sql.keysToClaim(1);
    for (String value : new String[] {"1100000", "'email'", "8000"}) {
      statement = statement.replaceFirst("\\?", value);
    }
    return statement;
  }

  static List<String> plan(Connection connection, String explain) throws Exception {
    List<String> lines = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(explain)) {
      while (rs.next()) {
        lines.add(rs.getString(rs.getMetaData().getColumnCount()));
      }
    }
    return lines;
  }
}
