/**
 * The job executor: durable jobs run by one or more nodes sharing a SQLite or PostgreSQL database.
 * {@link io.sluice.jobs.JobStores} opens the job store; the executor runs its jobs.
 */
package io.sluice.jobs;
