/**
 * The store types of sluice-jdbc in configuration files: {@code sqlite} and {@code postgresql}
 * under {@code sluice.store}, registered through {@link io.sluice.jdbc.config.JdbcStoreComponents}.
 */
package io.sluice.jdbc.config;
