package io.sluice.db;

import io.sluice.core.Message;
import io.sluice.core.spi.Processor;
import io.sluice.testkit.ProcessorContractTest;
import java.nio.file.Path;
import java.util.Map;

/** The processor contract, for db-select on an SQLite file. */
class DbSelectProcessorContractTest extends ProcessorContractTest {

  @Override
  protected Processor newProcessor(Path workDir) throws Exception {
    TestDb db = TestDb.sqlite(workDir);
    db.execute("CREATE TABLE IF NOT EXISTS squares (n integer, square integer)");
    db.execute("DELETE FROM squares");
    db.execute(
        "INSERT INTO squares WITH RECURSIVE g(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM g"
            + " WHERE n < 999) SELECT n, n * n FROM g");
    return DbSelectProcessor.of(
        db.dataSources(),
        DbStatement.of(
            "db",
            "SELECT square FROM squares WHERE n = :n",
            TestDb.parameters("n", "#[payload]"),
            null));
  }

  @Override
  protected Message message(int i) {
    return Message.of(i);
  }

  @Override
  protected Object outcome(Message result) {
    return ((java.util.List<?>) result.payload())
        .stream().map(row -> ((Map<?, ?>) row).get("square")).toList();
  }
}
