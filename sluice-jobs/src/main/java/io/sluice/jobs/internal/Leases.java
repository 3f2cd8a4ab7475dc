package io.sluice.jobs.internal;

import static io.sluice.jdbc.JdbcAccess.bind;

import io.sluice.core.store.Require;
import io.sluice.jdbc.JdbcAccess;
import io.sluice.jobs.spi.NodeLease;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The nodes' leases: registered, ranked, renewed, given up, and the jobs of lapsed ones reclaimed.
 */
final class Leases {

  private final JdbcAccess db;
  private final JobSql sql;
  private final JobStatements counted;

  Leases(JdbcAccess db, JobSql sql, JobStatements counted) {
    this.db = db;
    this.sql = sql;
    this.counted = counted;
  }

  NodeLease register(String node, Duration duration) {
    Require.nonBlank(node, "node");
    long millis = positive(duration, "lease");
    long epoch =
        db.write(
            "register node '" + node + "' for jobs",
            tx -> {
              PreparedStatement register = tx.prepare(sql.register());
              bind(register, node, millis);
              return counted.firstLong(register);
            });
    return new NodeLease(node, epoch);
  }

  int rank(NodeLease lease) {
    List<Long> counts =
        counted.select(
            "count the live nodes before " + lease, sql.rank(), rs -> rs.getLong(1), lease.node());
    return counts.isEmpty() ? 0 : counts.getFirst().intValue();
  }

  boolean renew(NodeLease lease, Duration duration) {
    long millis = positive(duration, "lease");
    if (db.type().equals("postgresql")) {
      // One statement on a connection of its own, not in the writer's lanes: a renewal must not
      // wait behind writes stalled on a row lock (a node frozen inside a transaction holds rows the
      // others update, until the server ends its idle transaction after 5 s), or the lease of every
      // live node would lapse with the frozen one's.
      return db.read(
          "renew the lease of node " + lease,
          connection -> {
            try (PreparedStatement renew = connection.prepareStatement(sql.renew())) {
              bind(renew, millis, lease.node(), lease.epoch());
              return counted.update(renew) == 1;
            }
          });
    }
    return db.write(
        "renew the lease of node " + lease,
        tx -> {
          PreparedStatement renew = tx.prepare(sql.renew());
          bind(renew, millis, lease.node(), lease.epoch());
          return counted.update(renew) == 1;
        });
  }

  void deregister(NodeLease lease) {
    db.write(
        "deregister node " + lease,
        tx -> {
          PreparedStatement release =
              tx.prepare(
                  "UPDATE sluice_job SET state = 0, owner = NULL, epoch = NULL,"
                      + " attempts = attempts - 1 WHERE state = 1 AND owner = ? AND epoch = ?");
          bind(release, lease.node(), lease.epoch());
          if (counted.update(release) > 0) {
            tx.signal(JdbcJobStore.SIGNAL);
          }
          PreparedStatement forget = tx.prepare(JobSql.DEREGISTER);
          bind(forget, lease.node(), lease.epoch());
          counted.update(forget);
          return null;
        });
  }

  List<Long> reclaim() {
    return db.write(
        "reclaim the jobs of lapsed nodes",
        tx -> {
          List<Long> ids = new ArrayList<>();
          try (ResultSet rs = counted.rows(tx.prepare(sql.reclaim()))) {
            while (rs.next()) {
              ids.add(rs.getLong(1));
            }
          }
          if (!ids.isEmpty()) {
            tx.signal(JdbcJobStore.SIGNAL);
          }
          return ids;
        });
  }

  private static long positive(Duration duration, String what) {
    Require.nonNull(duration, what);
    if (!duration.isPositive() || duration.toMillis() < 1) {
      throw new IllegalArgumentException(
          what + " must be at least 1 ms, was " + duration + "; choose a positive duration");
    }
    return duration.toMillis();
  }
}
