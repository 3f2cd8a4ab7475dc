package io.sluice.jobs.spi;

/**
 * How many jobs of one type and priority wait in a {@link JobStore}, due or not, counted at one
 * moment.
 *
 * @param type the job type
 * @param priority the priority
 * @param waiting how many wait
 */
public record WaitingJobs(String type, int priority, long waiting) {}
