package io.sluice.db.config;

import io.sluice.config.spi.ComponentProvider;
import io.sluice.config.spi.ConfigComponent;
import io.sluice.db.DbUpdateProcessor.Kind;
import java.util.List;

/**
 * The database connector in configuration files: the processors {@code db-select}, {@code
 * db-insert}, {@code db-update}, {@code db-delete}, {@code db-execute} and {@code db-bulk}, the
 * source {@code db-poll}, and the section {@code dataSources} they name their data source in.
 */
public final class DbComponents implements ComponentProvider {

  @Override
  public List<ConfigComponent<?>> components() {
    return List.of(
        new DbSelectComponent(),
        new DbUpdateComponent(Kind.INSERT),
        new DbUpdateComponent(Kind.UPDATE),
        new DbUpdateComponent(Kind.DELETE),
        new DbExecuteComponent(),
        new DbBulkComponent(),
        new DbPollComponent(),
        new QueryInputComponent(),
        new DataSourcesSection());
  }
}
