/**
 * Storage SPI: {@link io.sluice.core.store.ObjectStore}, {@link io.sluice.core.store.DurableQueue},
 * {@link io.sluice.jobs.spi.JobStore} and the {@link io.sluice.core.store.Storage} that gives them
 * out, in memory (here) or in SQLite and PostgreSQL (sluice-jdbc).
 */
package io.sluice.core.store;
