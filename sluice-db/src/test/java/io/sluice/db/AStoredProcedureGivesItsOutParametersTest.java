package io.sluice.db;

import static io.sluice.db.TestDb.parameters;
import static io.sluice.db.TestDb.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import io.sluice.core.flow.Flow;
import io.sluice.testkit.MariaDbTestDatabase;
import io.sluice.testkit.PostgresTestDatabase;
import java.math.BigDecimal;
import java.sql.JDBCType;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * db-execute creates a routine (DDL) and calls it with an in and an out parameter: the result maps
 * the out parameter's name to its value. PostgreSQL through a function and the JDBC escape, MariaDB
 * through a procedure and CALL.
 */
class AStoredProcedureGivesItsOutParametersTest {

  @RegisterExtension static final PostgresTestDatabase POSTGRES = new PostgresTestDatabase();
  @RegisterExtension static final MariaDbTestDatabase MARIADB = new MariaDbTestDatabase();

  private static Object call(TestDb db, String create, String call) throws Exception {
    DataSources sources = db.dataSources();
    Flow flow =
        Flow.builder("tax")
            .processor(
                new DbExecuteProcessor(
                    sources, DbStatement.of("db", create, Map.of(), "created"), Map.of()))
            .processor(
                new DbExecuteProcessor(
                    sources,
                    DbStatement.of("db", call, parameters("amount", "#[payload]"), null),
                    Map.of("total", JDBCType.NUMERIC)))
            .build();
    return run(flow, Message.of(new BigDecimal("10.00"))).payload();
  }

  @Test
  void aPostgresqlFunctionWithAnOutParameter() throws Exception {
    String name = TestDb.table("add_tax");
    Object result =
        call(
            TestDb.postgres(POSTGRES),
            "CREATE FUNCTION "
                + name
                + "(amount numeric, OUT total numeric) AS $$ SELECT amount * 1.2 $$"
                + " LANGUAGE sql",
            "{call " + name + "(:amount, :total)}");

    assertThat(result).isInstanceOf(Map.class);
    assertThat((BigDecimal) ((Map<?, ?>) result).get("total"))
        .isEqualByComparingTo(new BigDecimal("12.00"));
  }

  @Test
  void aMariadbProcedureWithAnOutParameter() throws Exception {
    String name = TestDb.table("add_tax");
    Object result =
        call(
            TestDb.mariadb(MARIADB),
            "CREATE PROCEDURE "
                + name
                + "(IN amount DECIMAL(10,2), OUT total DECIMAL(10,2))"
                + " BEGIN SET total = amount * 1.2; END",
            "CALL " + name + "(:amount, :total)");

    assertThat(result).isInstanceOf(Map.class);
    assertThat((BigDecimal) ((Map<?, ?>) result).get("total"))
        .isEqualByComparingTo(new BigDecimal("12.00"));
  }
}
