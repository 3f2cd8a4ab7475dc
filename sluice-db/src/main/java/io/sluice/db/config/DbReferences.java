package io.sluice.db.config;

import io.sluice.db.DataSources;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The data sources of one file, shared by its db processors, and the data source each processor
 * names, which the {@code dataSources} section checks once it has mapped them (it is mapped after
 * the flows).
 */
final class DbReferences {

  /** The file's data sources; the section adds them. */
  final DataSources dataSources = new DataSources();

  /** Each processor's data source, by the path that names it. */
  final Map<String, String> names = new LinkedHashMap<>();
}
