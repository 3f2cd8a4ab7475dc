/**
 * Storage SPI: {@link io.sluice.core.store.ObjectStore}, {@link io.sluice.core.store.DurableQueue}
 * and the {@link io.sluice.core.store.Storage} that gives them out, in memory (here) or in SQLite
 * and PostgreSQL (sluice-jdbc). The job store's SPI is sluice-jobs' ({@code io.sluice.jobs.spi}).
 */
package io.sluice.core.store;
