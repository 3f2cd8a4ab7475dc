package io.sluice.jobs;

import io.sluice.core.store.JobStore;
import io.sluice.core.store.Storage;
import io.sluice.testkit.PostgresTestDatabase;
import java.sql.Connection;
import java.time.Clock;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The executor on PostgreSQL; another node is another storage with its own listener. */
class PostgresJobExecutorTest extends JobExecutorContract {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  @Override
  protected Storage newStorage(Clock clock) throws Exception {
    DB.dropTables();
    return JobTestStorages.postgres(DB, clock);
  }

  @Override
  protected JobStore otherNode() {
    return JobTestStorages.jobs(closeAfter(JobTestStorages.postgres(DB, clock)));
  }

  @Override
  protected Connection connect() throws Exception {
    return DB.connect();
  }

  @Override
  protected AutoCloseable blockWrites() throws Exception {
    Connection connection = connect();
    connection.setAutoCommit(false);
    connection
        .createStatement()
        .execute("LOCK TABLE sluice_job_node, sluice_job IN ACCESS EXCLUSIVE MODE");
    return () -> {
      connection.rollback();
      connection.close();
    };
  }
}
