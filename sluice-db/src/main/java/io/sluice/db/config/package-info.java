/**
 * The database connector in configuration files: the {@code dataSources} section and the {@code
 * db-*} processors, registered through {@link io.sluice.db.config.DbComponents}.
 */
package io.sluice.db.config;
