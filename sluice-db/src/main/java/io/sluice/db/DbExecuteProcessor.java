package io.sluice.db;

import io.sluice.core.Message;
import io.sluice.db.internal.Binding;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code db-execute}: runs any statement: DDL ({@code CREATE TABLE}), or a stored procedure call
 * ({@code {call add_tax(:amount, :total)}}, {@code CALL ...}) whose out parameters, named with
 * their JDBC type in {@code outParameters}, make the result: a map of their values by name. Without
 * out parameters the result is the update count (0 for DDL).
 */
public final class DbExecuteProcessor extends DbOperation {

  private final Map<String, JDBCType> outParameters;

  /**
   * A statement whose parameters named in {@code outParameters} (empty for none) are read back.
   *
   * @throws io.sluice.core.ConfigurationException when the SQL does not name exactly the in and out
   *     parameters
   */
  public DbExecuteProcessor(
      DataSources dataSources, DbStatement statement, Map<String, JDBCType> outParameters) {
    super("db-execute", dataSources, statement, outParameters.keySet());
    this.outParameters = Collections.unmodifiableMap(new LinkedHashMap<>(outParameters));
  }

  @Override
  public Message process(Message message) {
    List<Object> values = values(message);
    return withConnection(message, (connection, joined) -> execute(message, values, connection));
  }

  private Message execute(Message message, List<Object> values, Connection connection)
      throws SQLException {
    List<String> positions = statement.sql().positions();
    if (outParameters.isEmpty()) {
      try (PreparedStatement prepared = connection.prepareStatement(statement.sql().jdbcSql())) {
        bind(prepared, values);
        prepared.execute();
        return result(message, Math.max(prepared.getUpdateCount(), 0));
      }
    }
    try (CallableStatement call = connection.prepareCall(statement.sql().jdbcSql())) {
      for (int i = 0; i < positions.size(); i++) {
        JDBCType out = outParameters.get(positions.get(i));
        if (out != null) {
          call.registerOutParameter(i + 1, out.getVendorTypeNumber());
        }
      }
      bindIn(call, positions, values);
      call.execute();
      Map<String, Object> result = new LinkedHashMap<>();
      for (int i = 0; i < positions.size(); i++) {
        if (outParameters.containsKey(positions.get(i))) {
          result.put(positions.get(i), call.getObject(i + 1));
        }
      }
      return result(message, result);
    }
  }

  /**
   * Binds the in parameters at their own positions; an out parameter that is also given a value (an
   * INOUT one) is bound as well.
   */
  private void bindIn(CallableStatement call, List<String> positions, List<Object> values)
      throws SQLException {
    for (int i = 0; i < positions.size(); i++) {
      String name = positions.get(i);
      if (statement.parameters().containsKey(name)) {
        Binding.bindOne(call, i + 1, name, values.get(i), statement.dataSource(), operation());
      }
    }
  }

  /** The out parameters and their types. */
  public Map<String, JDBCType> outParameters() {
    return outParameters;
  }
}
