package io.sluice.jobs.spi;

import java.time.Instant;

/**
 * How the unfinished jobs of one type stand in a {@link JobStore}, counted at one moment.
 *
 * @param type the job type
 * @param waiting jobs waiting to be claimed, due or not
 * @param due the waiting jobs that are due now (on the store's clock)
 * @param running jobs claimed by a node
 * @param incidents jobs that failed with no retry left
 * @param oldestDue the due time of the waiting job due longest ago; null when none is due
 */
public record JobTypeStats(
    String type, long waiting, long due, long running, long incidents, Instant oldestDue) {}
